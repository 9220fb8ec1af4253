/**
 * Forgetting sessions (issue 15): every row of theirs in every table (session-delete-tables.ts), their full-text
 * entries, and then the bytes SQLite would otherwise keep — free pages, the WAL, the full-text index's old
 * segments — so nothing of them stays in the data folder.
 *
 * Dependants: a fork's or a continuation's copied prefix is stored once, in the session it was copied from
 * (lineage-links.ts), so deleting that session alone would cut the dependant's first steps away. The deletion
 * therefore refuses, naming the dependants, unless asked to take them too (`withDependants`, `--forks`).
 */
import type { WritableDB } from './database';
import { searchRowid } from './search-query';
import { FORGET_TABLES } from './session-delete-tables';
import { markScrubbed, mayHoldStaleBytes, zeroFreedBytes } from './store-scrub-state';

export interface ForgetDependant {
  readonly sessionId: string;
  /** How it goes on from the doomed one: 'fork' | 'continues' | 'follows'. */
  readonly kind: string;
  readonly of: string;
}

export interface ForgetFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface ForgetForkRow {
  readonly id: string;
  readonly sessionId: string;
  readonly dir: string;
  readonly dirCreated: boolean;
  readonly transcript: string | null;
  readonly resumeSessionId: string | null;
  readonly branchNodeId: string;
  readonly nodeId: string;
  readonly createdAt: string;
}

/** What a deletion will remove (the confirmation lists it) — and what it found it may not remove. */
export interface ForgetPlan {
  /** The sessions to delete: those asked for, and their dependants when those are taken too. */
  readonly sessionIds: readonly string[];
  /** Ids asked for that name no stored session. */
  readonly missing: readonly string[];
  /** Sessions that go on from a doomed one and are not doomed themselves (a refusal lists them). */
  readonly dependants: readonly ForgetDependant[];
  readonly counts: {
    readonly nodes: number;
    readonly records: number;
    readonly rawBytes: number;
    readonly indexEntries: number;
    readonly files: number;
    readonly snapshots: number;
    readonly forks: number;
    readonly operations: number;
  };
  /** The transcript files whose rows go (remembered as tombstones so an import does not bring them back). */
  readonly files: readonly ForgetFile[];
  /** Snapshot ids whose refs go (their objects become unreachable unless another ref reaches them). */
  readonly snapshotIds: readonly string[];
  /** Journal entries naming only doomed nodes; their safety-snapshot refs go too. */
  readonly operationIds: readonly string[];
  readonly forks: readonly ForgetForkRow[];
}

export interface PlanOptions {
  /** Take the sessions that go on from the doomed ones too (forks, continuations), recursively. */
  readonly withDependants?: boolean;
}

const TEMP_TABLES = `
  CREATE TEMP TABLE IF NOT EXISTS forget_sessions (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TEMP TABLE IF NOT EXISTS forget_nodes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, timestamp TEXT);
  CREATE TEMP TABLE IF NOT EXISTS forget_files (id INTEGER PRIMARY KEY);
  CREATE TEMP TABLE IF NOT EXISTS forget_snapshots (node_id TEXT PRIMARY KEY, id TEXT NOT NULL) WITHOUT ROWID;
  CREATE TEMP TABLE IF NOT EXISTS forget_operations (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS temp.forget_nodes_by_id ON forget_nodes(id);
`;

function clearTemp(db: WritableDB): void {
  db.exec(
    'DELETE FROM temp.forget_sessions; DELETE FROM temp.forget_nodes; DELETE FROM temp.forget_files; DELETE FROM temp.forget_snapshots; DELETE FROM temp.forget_operations;',
  );
}

/** Fills the temp tables with the doomed set and returns the plan; run inside the write transaction that uses it. */
function fillDoomed(db: WritableDB, requested: readonly string[], options: PlanOptions): ForgetPlan {
  db.exec(TEMP_TABLES);
  clearTemp(db);
  const sessionExists = db.prepare<[string], { id: string }>('SELECT id FROM sessions WHERE id = ?');
  const aliasOf = db.prepare<[string], { id: string }>('SELECT session_id AS id FROM session_aliases WHERE alias = ?');
  const missing: string[] = [];
  const doomed = new Set<string>();
  for (const id of requested) {
    const found = sessionExists.get(id) ?? aliasOf.get(id);
    if (found === undefined) missing.push(id);
    else doomed.add(found.id);
  }
  const laterOf = db.prepare<[string], { later_id: string; kind: string }>('SELECT later_id, kind FROM session_lineage WHERE earlier_id = ?');
  const dependants: ForgetDependant[] = [];
  const queue = [...doomed];
  while (queue.length > 0) {
    const earlier = queue.shift()!;
    for (const link of laterOf.all(earlier)) {
      if (doomed.has(link.later_id) || sessionExists.get(link.later_id) === undefined) continue;
      if (options.withDependants === true) {
        doomed.add(link.later_id);
        queue.push(link.later_id);
      } else if (!dependants.some((d) => d.sessionId === link.later_id)) {
        dependants.push({ sessionId: link.later_id, kind: link.kind, of: earlier });
      }
    }
  }
  const addSession = db.prepare<[string]>('INSERT OR IGNORE INTO temp.forget_sessions (id) VALUES (?)');
  for (const id of doomed) addSession.run(id);

  db.exec(`
    INSERT INTO temp.forget_nodes (seq, id, timestamp)
      SELECT seq, id, timestamp FROM nodes WHERE session_id IN (SELECT id FROM temp.forget_sessions);
    -- A file goes with its session unless a node of a surviving session was first stored from it.
    INSERT INTO temp.forget_files (id)
      SELECT f.id FROM files f WHERE f.session_id IN (SELECT id FROM temp.forget_sessions)
        AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.file_id = f.id AND n.session_id NOT IN (SELECT id FROM temp.forget_sessions));
    INSERT OR IGNORE INTO temp.forget_snapshots (node_id, id)
      SELECT node_id, id FROM snapshots WHERE session_id IN (SELECT id FROM temp.forget_sessions);
    -- A fork's branch node is a snapshot, whichever session it was filed under.
    INSERT OR IGNORE INTO temp.forget_snapshots (node_id, id)
      SELECT s.node_id, s.id FROM forks k JOIN snapshots s ON s.node_id = k.branch_node_id
      WHERE k.session_id IN (SELECT id FROM temp.forget_sessions);
    -- Finished journal entries of a doomed node (an interrupted one stays: recovery needs it).
    INSERT OR IGNORE INTO temp.forget_operations (id)
      SELECT id FROM operations WHERE status != 'applying'
        AND (node_id IN (SELECT id FROM temp.forget_nodes) OR node_id IN (SELECT node_id FROM temp.forget_snapshots));
  `);
  // The undo of a doomed operation names it (operations.undoes): it goes too, and so on down the chain.
  const undoers = db.prepare('INSERT OR IGNORE INTO temp.forget_operations (id) SELECT id FROM operations WHERE undoes IN (SELECT id FROM temp.forget_operations)');
  while (undoers.run().changes > 0);

  const count = (sql: string): number => (db.prepare(sql).get() as { n: number | null }).n ?? 0;
  const watermark = (db.prepare(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`).get() as { value: number } | undefined)?.value ?? 0;
  const files = db
    .prepare<[], { path: string; size: number; mtime_ms: number }>('SELECT path, size, mtime_ms FROM files WHERE id IN (SELECT id FROM temp.forget_files) ORDER BY id')
    .all()
    .map((row) => ({ path: row.path, size: row.size, mtimeMs: row.mtime_ms }));
  const forks = db
    .prepare<[], { id: string; session_id: string; dir: string; dir_created: number; transcript: string | null; resume_session_id: string | null; branch_node_id: string; node_id: string; created_at: string }>(
      'SELECT id, session_id, dir, dir_created, transcript, resume_session_id, branch_node_id, node_id, created_at FROM forks WHERE session_id IN (SELECT id FROM temp.forget_sessions) ORDER BY created_at',
    )
    .all()
    .map((row) => ({
      id: row.id,
      sessionId: row.session_id,
      dir: row.dir,
      dirCreated: row.dir_created !== 0,
      transcript: row.transcript,
      resumeSessionId: row.resume_session_id,
      branchNodeId: row.branch_node_id,
      nodeId: row.node_id,
      createdAt: row.created_at,
    }));
  return {
    sessionIds: [...doomed],
    missing,
    dependants,
    counts: {
      nodes: count('SELECT count(*) AS n FROM temp.forget_nodes'),
      records: count('SELECT count(*) AS n FROM records WHERE file_id IN (SELECT id FROM temp.forget_files)'),
      rawBytes:
        count('SELECT sum(raw_bytes) AS n FROM nodes WHERE seq IN (SELECT seq FROM temp.forget_nodes)') +
        count('SELECT sum(raw_bytes) AS n FROM records WHERE file_id IN (SELECT id FROM temp.forget_files)'),
      indexEntries: count(`SELECT count(*) AS n FROM temp.forget_nodes f JOIN nodes n ON n.seq = f.seq WHERE f.seq <= ${Number(watermark)} AND coalesce(n.text, 'x') != ''`),
      files: files.length,
      snapshots: count('SELECT count(*) AS n FROM temp.forget_snapshots'),
      forks: forks.length,
      operations: count('SELECT count(*) AS n FROM temp.forget_operations'),
    },
    files,
    snapshotIds: db.prepare<[], { id: string }>('SELECT id FROM temp.forget_snapshots ORDER BY id').all().map((row) => row.id),
    operationIds: db.prepare<[], { id: string }>('SELECT id FROM temp.forget_operations ORDER BY id').all().map((row) => row.id),
    forks,
  };
}

/** What deleting these sessions would remove, without removing anything. */
export function planForget(db: WritableDB, sessionIds: readonly string[], options: PlanOptions = {}): ForgetPlan {
  return db.transaction(() => {
    const plan = fillDoomed(db, sessionIds, options);
    clearTemp(db);
    return plan;
  })();
}

export type ForgetOutcome = { readonly status: 'deleted'; readonly plan: ForgetPlan } | { readonly status: 'has-dependants'; readonly plan: ForgetPlan };

/**
 * Deletes the sessions' rows in one transaction (refused, nothing written, while dependants would be left
 * without their prefix). `onDeleted` runs inside the transaction (tombstones are written with the rows' removal).
 * Call `scrubStore` afterwards so the deleted bytes leave the file.
 */
export function forgetSessions(
  db: WritableDB,
  sessionIds: readonly string[],
  options: PlanOptions & { readonly onDeleted?: (plan: ForgetPlan) => void } = {},
): ForgetOutcome {
  // Zero what this transaction frees, in the tables' pages and in the WAL frames it writes.
  db.pragma('secure_delete = ON');
  try {
    return db.transaction((): ForgetOutcome => {
      const plan = fillDoomed(db, sessionIds, options);
      if (plan.dependants.length > 0) {
        clearTemp(db);
        return { status: 'has-dependants', plan };
      }
      // The contentless index is deleted from by rowid, computed as the indexer computed it.
      const watermark = (db.prepare(`SELECT value FROM meta WHERE key = 'fts_indexed_upto'`).get() as { value: number } | undefined)?.value ?? 0;
      const deleteEntry = db.prepare<[bigint]>('DELETE FROM node_text WHERE rowid = ?');
      for (const node of db.prepare<[number], { seq: number; timestamp: string | null }>('SELECT seq, timestamp FROM temp.forget_nodes WHERE seq <= ?').all(watermark)) {
        deleteEntry.run(searchRowid(node.timestamp, node.seq));
      }
      for (const entry of FORGET_TABLES) db.prepare(entry.deleteSql).run();
      options.onDeleted?.(plan);
      clearTemp(db);
      return { status: 'deleted', plan };
    })();
  } finally {
    zeroFreedBytes(db);
  }
}

export interface ScrubOutcome {
  /** The WAL was folded back and cut to nothing (false: another connection kept reading; it shrinks later). */
  readonly walTruncated: boolean;
  /** VACUUM ran: only for a store that may hold stale bytes in live pages (store-scrub-state.ts). */
  readonly vacuumed: boolean;
  /** Free pages overwritten with zeros instead (pages freed before the deletion keep what they held). */
  readonly zeroedFreePages: number;
  /** Bytes of the store file before and after. */
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly problems: readonly string[];
}

/**
 * Takes deleted bytes out of the store's files without rewriting all of it: the full-text index merged into one
 * segment (its old segments, which still list the deleted text's terms, are dropped, zeroed), the free pages
 * overwritten (zeroFreePages), and a TRUNCATE checkpoint so the WAL keeps no old page images. The deletion
 * itself ran with secure_delete ON and every writer runs with FAST, so no live page keeps a deleted row's
 * bytes; the canary test (test/integration/forget/) checks it. Only a store written before that — no mark —
 * is VACUUMed, once: minutes and twice the disk on a multi-GB store, so never for every deletion.
 */
export function scrubStore(db: WritableDB): ScrubOutcome {
  const problems: string[] = [];
  const bytes = (): number => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  const bytesBefore = bytes();
  db.pragma('secure_delete = ON');
  try {
    db.transaction(() => db.prepare(`INSERT INTO node_text (node_text) VALUES ('optimize')`).run())();
    let vacuumed = false;
    let zeroedFreePages = 0;
    if (mayHoldStaleBytes(db)) {
      try {
        db.exec('VACUUM');
        vacuumed = true;
        markScrubbed(db);
      } catch (error) {
        problems.push(`VACUUM did not run (${error instanceof Error ? error.message : String(error)}): deleted bytes may stay in free pages until the next deletion`);
      }
    } else {
      zeroedFreePages = zeroFreePages(db);
    }
    const checkpoint = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    const walTruncated = checkpoint[0]?.busy === 0;
    if (!walTruncated) problems.push('another connection kept reading: the WAL is folded back by its next checkpoint');
    return { walTruncated, vacuumed, zeroedFreePages, bytesBefore, bytesAfter: bytes(), problems };
  } finally {
    zeroFreedBytes(db);
  }
}

const ZERO_FILL_TABLE = 'arbor_zero_fill';

/**
 * Overwrites every page on SQLite's free list with zeros, costing writes for the free pages only: a page freed
 * under FAST (a balance, an overflow chain) keeps its old bytes. A scratch table takes the free pages one
 * zero-filled row each (the allocator reuses free pages first), then is dropped with secure_delete ON, which
 * zeroes the pages it frees. Returns how many pages were free.
 */
export function zeroFreePages(db: WritableDB): number {
  const free = (): number => db.pragma('freelist_count', { simple: true }) as number;
  const before = free();
  if (before === 0) return 0;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${ZERO_FILL_TABLE}; CREATE TABLE ${ZERO_FILL_TABLE} (fill BLOB)`);
    // Most of a page per row, so each row takes one page; the loop ends when the free list is used up.
    const insert = db.prepare<[number]>(`INSERT INTO ${ZERO_FILL_TABLE} (fill) VALUES (zeroblob(?))`);
    for (let left = free(), guard = 0; left > 0 && guard < before * 2 + 16; left = free(), guard++) {
      for (let i = 0; i < left; i++) insert.run(pageSize - 200);
    }
    db.exec(`DROP TABLE ${ZERO_FILL_TABLE}`);
  })();
  return before;
}
