/**
 * Migration tests build "a store made by the previous schema" by copying a current store's rows into a file
 * migrated only up to that schema. The copy is here once; each test says which columns its schema had.
 */
import type { WritableDB } from '../../../electron/db/database';

/** Columns per table: the old schema's own list, so a column it never had fails the copy. */
export type TableColumns = Readonly<Record<string, string>>;

/** Copies the rows of the store at `from` into `old`; `whileAttached` runs with `from` attached as `source`. */
export function copyRows(old: WritableDB, from: string, tables: TableColumns, whileAttached?: () => void): void {
  old.prepare('ATTACH ? AS source').run(from);
  for (const [table, columns] of Object.entries(tables)) {
    old.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM source.${table}`);
  }
  whileAttached?.();
  old.exec('DETACH source');
}

/** The columns both `old` and the store at `from` have, per table (later migrations add some to the current one). */
export function sharedColumns(old: WritableDB, from: string, tables: readonly string[]): TableColumns {
  old.prepare('ATTACH ? AS source').run(from);
  try {
    const names = (table: string, schema: string) =>
      (old.prepare(`SELECT name FROM pragma_table_info('${table}', '${schema}')`).all() as { name: string }[]).map((c) => c.name);
    return Object.fromEntries(
      tables.map((table) => {
        const own = new Set(names(table, 'main'));
        return [table, names(table, 'source').filter((name) => own.has(name)).join(', ')];
      }),
    );
  } finally {
    old.exec('DETACH source');
  }
}
