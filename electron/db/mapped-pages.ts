/**
 * A read connection maps the store file (database.ts, mappedReads), and every page it touched stays in the
 * process's RSS until the mapping moves. A pass over a big session (the reconstruction behind `sessions.states`
 * read 390 MB of a 1 GB store's pages) would keep all of them; setting the mapping's size again makes SQLite map
 * the file anew, with none of its pages in memory (they stay in the kernel's page cache, read again cheaply).
 */
import type { ReadableDB } from './database';

/** Lets the pages `db` mapped go; nothing when it maps none or is in the middle of a query (tried again later). */
export function releaseMappedPages(db: ReadableDB): void {
  try {
    const size = db.pragma('mmap_size', { simple: true }) as number;
    if (size <= 0) return;
    db.pragma('mmap_size = 0');
    db.pragma(`mmap_size = ${size}`);
  } catch {
    // A statement of this connection is being iterated (better-sqlite3 allows no other meanwhile): next time.
  }
}
