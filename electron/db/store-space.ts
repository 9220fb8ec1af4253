/**
 * Where a store's bytes are: pages per table and index, from SQLite's dbstat table (for the benchmarks and
 * `issue 12`'s size target). Opens its own read-only connection, so it can be run beside a live store.
 */
import Database from 'better-sqlite3';

export interface StoreSpace {
  readonly name: string;
  readonly bytes: number;
  /** Bytes of the rows themselves (the rest of the pages is page headers and free space in them). */
  readonly payload: number;
}

/** Tables and indexes by size, largest first, plus the pages free in the file (`(free pages)`). */
export function storeSpace(path: string): StoreSpace[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare<[], StoreSpace>('SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all();
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    return free > 0 ? [...rows, { name: '(free pages)', bytes: free * pageSize, payload: 0 }] : rows;
  } finally {
    db.close();
  }
}
