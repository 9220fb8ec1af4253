/**
 * What `arbor gc` reads and keeps in the store (migration 024): forks marked temporary (`forks.expires_at`)
 * and the background schedule (`meta.gc_schedule`, `meta.gc_last_run`).
 */
import type { WritableDB } from './database';

export function setForkExpiry(db: WritableDB, forkId: string, expiresAt: string | null): void {
  db.prepare<[string | null, string]>('UPDATE forks SET expires_at = ? WHERE id = ?').run(expiresAt, forkId);
}

/** Forks whose time to live ended before `now` (ISO time). */
export function expiredForkIds(db: WritableDB, now: string): string[] {
  return db
    .prepare<[string], { id: string }>('SELECT id FROM forks WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at')
    .all(now)
    .map((row) => row.id);
}

export function forkExpiry(db: WritableDB, forkId: string): string | null {
  return db.prepare<[string], { expires_at: string | null }>('SELECT expires_at FROM forks WHERE id = ?').get(forkId)?.expires_at ?? null;
}

export function readMeta(db: WritableDB, key: string): string | null {
  const row = db.prepare<[string], { value: unknown }>('SELECT value FROM meta WHERE key = ?').get(key);
  return row === undefined || row.value === null ? null : String(row.value);
}

export function writeMeta(db: WritableDB, key: string, value: string): void {
  db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
}
