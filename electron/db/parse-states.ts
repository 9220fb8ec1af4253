/**
 * A file's parser state between imports (migration 040): kept after the file's lines are stored, given back to
 * the next read that starts where this one ended. Its own small write after the file's last batch: an import
 * stopped between the two leaves a state taken at another offset, which no read is given (it reads from the start).
 */
import type { WritableDB } from './database';

export function prepareParseStateStatements(db: WritableDB) {
  return {
    read: db.prepare<[string], { parse_state: string | null; parse_state_offset: number | null }>(
      'SELECT parse_state, parse_state_offset FROM files WHERE path = ?',
    ),
    write: db.prepare<[string | null, number | null, string]>('UPDATE files SET parse_state = ?, parse_state_offset = ? WHERE path = ?'),
  };
}
export type ParseStateStatements = ReturnType<typeof prepareParseStateStatements>;

/** The state a read of `path` from `offset` may go on from; null when none was kept there. */
export function parseStateAt(s: ParseStateStatements, path: string, offset: number): string | null {
  const row = s.read.get(path);
  return row?.parse_state != null && row.parse_state_offset === offset ? row.parse_state : null;
}

/** Keeps (or, with null, forgets) the state a read that ended at `offset` left. */
export function keepParseState(s: ParseStateStatements, path: string, offset: number, state: string | null): void {
  s.write.run(state, state === null ? null : offset, path);
}
