/**
 * The deletion walks the tables through one list (session-delete-tables.ts). A migration that adds a table
 * holding a session's rows (a session or node column, or a foreign key to sessions, nodes or files) fails
 * here until its table is in FORGET_TABLES — read from sqlite_master, so no table can be forgotten.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandles, type WritableDB } from '../../../../electron/db/database';
import { FORGET_TABLES, NOT_SESSION_DATA } from '../../../../electron/db/session-delete-tables';

let dir: string;
let handles: DatabaseHandles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-forget-tables-'));
  handles = openDatabase(join(dir, 'arbor.sqlite'));
});
afterEach(() => {
  handles.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Tables whose columns name a session or node, or whose foreign keys point at sessions, nodes or files, and that the list misses. */
function tablesMissingFromForgetList(db: WritableDB): string[] {
  const listed = new Set(FORGET_TABLES.map((entry) => entry.table));
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((row) => row.name);
  return tables.filter((table) => {
    if (listed.has(table) || NOT_SESSION_DATA.has(table)) return false;
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
    const keys = db.prepare<[], { table: string }>(`SELECT "table" FROM pragma_foreign_key_list('${table}')`).all();
    return columns.some((column) => /session|node/i.test(column.name)) || keys.some((key) => ['sessions', 'nodes', 'files'].includes(key.table));
  });
}

describe('the tables a deletion walks', () => {
  it('lists every table of the schema that holds a session or node column', () => {
    expect(tablesMissingFromForgetList(handles.write)).toEqual([]);
  });

  it('names no table twice, and every statement names a table that exists and prepares', () => {
    const names = FORGET_TABLES.map((entry) => entry.table);
    expect(new Set(names).size).toBe(names.length);
    const db = handles.write;
    db.exec(`CREATE TEMP TABLE forget_sessions (id TEXT PRIMARY KEY); CREATE TEMP TABLE forget_nodes (seq INTEGER PRIMARY KEY, id TEXT, timestamp TEXT);
             CREATE TEMP TABLE forget_files (id INTEGER PRIMARY KEY); CREATE TEMP TABLE forget_snapshots (node_id TEXT PRIMARY KEY, id TEXT);
             CREATE TEMP TABLE forget_operations (id TEXT PRIMARY KEY);`);
    for (const entry of FORGET_TABLES) {
      expect(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(entry.table), entry.table).toBeDefined();
      expect(() => db.prepare(entry.deleteSql), entry.table).not.toThrow();
    }
  });

  it('counted replies go with their node through the list alone (regression: a trigger on nodes deleted them a second time)', () => {
    const triggers = handles.write.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%node_usage%'").all();
    expect(triggers.map((trigger) => trigger.name)).toEqual([]);
    expect(FORGET_TABLES.some((entry) => entry.table === 'node_usage')).toBe(true);
  });

  it('fails when a migration adds a table with a node column that the list misses (a per-node annotation table, say)', () => {
    handles.write.exec('CREATE TABLE node_notes (node_seq INTEGER NOT NULL REFERENCES nodes(seq), note TEXT)');
    handles.write.exec('CREATE TABLE note_colours (name TEXT PRIMARY KEY, rgb TEXT)');
    expect(tablesMissingFromForgetList(handles.write)).toEqual(['node_notes']);
  });
});
