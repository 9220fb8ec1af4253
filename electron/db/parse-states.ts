/**
 * A file's parser state between imports (migration 040): kept after the file's lines are stored, given back to
 * the next read that starts where this one ended. Its own small write after the file's last batch: an import
 * stopped between the two leaves a state taken at another offset, which no read is given (it reads from the start).
 */
import type { ResumeKeys } from '../importers/transcript';
import type { WritableDB } from './database';

export function prepareParseStateStatements(db: WritableDB) {
  return {
    read: db.prepare<[string], { parse_state: string | null; parse_state_offset: number | null }>(
      'SELECT parse_state, parse_state_offset FROM files WHERE path = ?',
    ),
    write: db.prepare<[string | null, number | null, string]>('UPDATE files SET parse_state = ?, parse_state_offset = ? WHERE path = ?'),
    // The keyed part (migration 045): one row a key, read as the lines need it, written as they change.
    key: db.prepare<[string, string], { value: string }>('SELECT k.value FROM parse_state_keys k JOIN files f ON f.id = k.file_id WHERE f.path = ? AND k.key = ?'),
    allKeys: db.prepare<[string], { key: string; value: string }>('SELECT k.key, k.value FROM parse_state_keys k JOIN files f ON f.id = k.file_id WHERE f.path = ?'),
    fileId: db.prepare<[string], { id: number }>('SELECT id FROM files WHERE path = ?'),
    putKey: db.prepare<[number, string, string]>('INSERT OR REPLACE INTO parse_state_keys (file_id, key, value) VALUES (?, ?, ?)'),
    forgetKeys: db.prepare<[number]>('DELETE FROM parse_state_keys WHERE file_id = ?'),
  };
}
export type ParseStateStatements = ReturnType<typeof prepareParseStateStatements>;

/** The state a read of `path` from `offset` may go on from; null when none was kept there. */
export function parseStateAt(s: ParseStateStatements, path: string, offset: number): string | null {
  const row = s.read.get(path);
  return row?.parse_state != null && row.parse_state_offset === offset ? row.parse_state : null;
}

/**
 * Keeps (or, with null, forgets) the state a read that ended at `offset` left, and the keys it set. Called in the
 * write transaction of the file's last batch or after it: the keys and the state they go with change together.
 */
export function keepParseState(s: ParseStateStatements, path: string, offset: number, state: string | null, keys?: ResumeKeys): void {
  s.write.run(state, state === null ? null : offset, path);
  const file = s.fileId.get(path);
  if (file === undefined) return;
  if (state === null || keys?.whole === true) s.forgetKeys.run(file.id);
  if (state === null || keys === undefined) return;
  for (const [key, value] of keys.entries) s.putKey.run(file.id, key, value);
}

/** One kept key of `path`'s state (ParseOptions.resumeKey). */
export function parseStateKey(s: ParseStateStatements, path: string, key: string): string | null {
  return s.key.get(path, key)?.value ?? null;
}

/** Every kept key of `path`'s state, for a parse that cannot look them up (the parse worker's). */
export function parseStateKeys(s: ParseStateStatements, path: string): [string, string][] {
  return s.allKeys.all(path).map((row) => [row.key, row.value]);
}
