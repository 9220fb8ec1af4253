/**
 * Whether the store can hold bytes a deletion did not zero (issue 15). Every writer runs with
 * `secure_delete = FAST`: SQLite then zeroes a deleted or rewritten row's bytes inside its page, at no extra I/O,
 * so an old row version (a raw line rewritten compressed, a tool result paired later) never lingers in a live
 * page. A store written before that (or by an older Arbor) may hold such bytes anywhere, so it has no mark and
 * its first deletion VACUUMs once; a store made with FAST on, or VACUUMed since, is marked and is spared that.
 */
import type { WritableDB } from './database';

const MARK_KEY = 'secure_delete_since';

/** Zero freed cell bytes in place on this connection (FAST: never more I/O; pages freed whole are not rewritten). */
export function zeroFreedBytes(db: WritableDB): void {
  db.pragma('secure_delete = FAST');
}

/** Records that every write from now on (and none before) left no stale bytes behind. */
export function markScrubbed(db: WritableDB, now: Date = new Date()): void {
  db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(MARK_KEY, now.toISOString());
}

/** True when the store may hold stale bytes in live pages (written before FAST was on): only VACUUM removes those. */
export function mayHoldStaleBytes(db: WritableDB): boolean {
  return db.prepare<[string], { value: unknown }>('SELECT value FROM meta WHERE key = ?').get(MARK_KEY) === undefined;
}
