/**
 * Fills `node_usage` for a store written before migration 023, from the raw lines it already keeps (no
 * transcript is read): Claude Code nodes whose line carries `message.usage`, and Codex steps from the
 * token_count records stored behind them — what the import now counts as it stores each batch.
 *
 * In the background, as raw-compaction.ts does for 013: the migration only records the newest node and record
 * (`meta.usage_backfill_until`, `meta.usage_backfill_records_until`); the indexer's loop reads a bounded chunk
 * per transaction and moves the watermark in the same transaction, so a crash redoes at most the chunk in
 * flight and the first start after the update is not held up by reading every stored line. Rows stored after
 * the migration are counted by the import itself. A store that ran 023 before it moved here has no watermark:
 * nothing to do (it has the rows).
 */
import { readUsage as readClaudeUsage } from '../importers/claude-code/json-shape';
import { readUsage as readCodexUsage } from '../importers/codex/rollout-entry';
import type { WritableDB } from './database';
import { prepareRawLineReader, rawColumns, type RawLineReader, type StoredRawColumns } from './raw-line-reader';
import { claudeFactsOfLine, type CountedReply } from './usage-replies';

/** Raw bytes read per chunk at most: bounds memory and the time one transaction holds the writer. */
const CHUNK_RAW_BYTES = 4 * 1024 * 1024;
const CODEX_STEPS = new Set(['assistant', 'tool_call', 'thinking']);

/** The watermarks, in meta: `until` is set by the migration, `done` moves with each chunk. */
export const USAGE_BACKFILL_KEYS = {
  nodesUntil: 'usage_backfill_until',
  nodesDone: 'usage_backfill_upto',
  recordsUntil: 'usage_backfill_records_until',
  recordsDone: 'usage_backfill_records_upto',
} as const;

/** SQL for the migration: the newest node and record are the end of the work; nothing is read. */
export const START_USAGE_BACKFILL_SQL = `
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${USAGE_BACKFILL_KEYS.nodesUntil}', coalesce((SELECT max(seq) FROM nodes), 0));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${USAGE_BACKFILL_KEYS.nodesDone}', 0);
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${USAGE_BACKFILL_KEYS.recordsUntil}', coalesce((SELECT max(id) FROM records), 0));
  INSERT OR REPLACE INTO meta (key, value) VALUES ('${USAGE_BACKFILL_KEYS.recordsDone}', 0);
`;

function parse(lines: RawLineReader, row: StoredRawColumns): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(lines.line(row).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const meta = (key: string) => `coalesce((SELECT value FROM meta WHERE key = '${key}'), 0)`;

export function prepareUsageBackfill(db: WritableDB) {
  // Prepared lazily: a store before migration 023 has no node_usage table to prepare against.
  const tableExists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'node_usage'");
  let statements: ReturnType<typeof prepare> | null = null;
  const prepare = () => ({
    range: db.prepare<[], { nodesDone: number; nodesUntil: number; recordsDone: number; recordsUntil: number }>(
      `SELECT ${meta(USAGE_BACKFILL_KEYS.nodesDone)} AS nodesDone, ${meta(USAGE_BACKFILL_KEYS.nodesUntil)} AS nodesUntil,
              ${meta(USAGE_BACKFILL_KEYS.recordsDone)} AS recordsDone, ${meta(USAGE_BACKFILL_KEYS.recordsUntil)} AS recordsUntil`,
    ),
    countNodes: db.prepare<[number, number], { rows: number }>('SELECT count(*) AS rows FROM nodes WHERE seq > ? AND seq <= ?'),
    countRecords: db.prepare<[number, number], { rows: number }>('SELECT count(*) AS rows FROM records WHERE id > ? AND id <= ?'),
    claudeRows: db.prepare<[number, number, number], StoredRawColumns & { seq: number; model: string | null }>(
      `SELECT n.seq, n.model, ${rawColumns('n')} FROM nodes n JOIN files f ON f.id = n.file_id
       WHERE f.format = 'claude-code' AND n.seq > ? AND n.seq <= ?
         AND n.kind IN ('assistant', 'thinking', 'tool_call', 'compaction', 'system', 'user', 'error')
       ORDER BY n.seq LIMIT ?`,
    ),
    codexRows: db.prepare<[number, number, number], StoredRawColumns & { id: number; seq: number | null; kind: string | null; model: string | null }>(
      `SELECT r.id, n.seq, n.kind, n.model, ${rawColumns('r')} FROM records r JOIN files f ON f.id = r.file_id
       LEFT JOIN nodes n ON n.id = r.ref_source_id
       WHERE f.format = 'codex' AND r.type = 'token_count' AND r.id > ? AND r.id <= ? ORDER BY r.id LIMIT ?`,
    ),
    // An import that ran while the backfill was behind may have counted a copy of an older reply (a resume or
    // a fork naming the same message.id) on its newer node: the reply moves to the first node that carried it,
    // as an import into a new store counts it. A node already counted keeps its row.
    insert: db.prepare<[number, string | null, string | null, number, number, number, number, number | null]>(
      `INSERT INTO node_usage (node_seq, reply_key, model, input, output, cache_read, cache_write, reported_usd)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (reply_key) DO UPDATE SET node_seq = excluded.node_seq, model = excluded.model
         WHERE excluded.node_seq < node_usage.node_seq
       ON CONFLICT DO NOTHING`,
    ),
    setMeta: db.prepare<[string, number]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    lines: prepareRawLineReader(db),
  });
  return {
    get: () => (statements ??= tableExists.get() === undefined ? null : prepare()),
  };
}
export type UsageBackfill = ReturnType<typeof prepareUsageBackfill>;

/** Nodes and records stored before migration 023 and not read for their usage yet (0: done, or never needed). */
export function pendingUsageRows(backfill: UsageBackfill): number {
  const s = backfill.get();
  if (s === null) return 0;
  const range = s.range.get()!;
  let pending = 0;
  if (range.nodesUntil > range.nodesDone) pending += s.countNodes.get(range.nodesDone, range.nodesUntil)?.rows ?? 0;
  if (range.recordsUntil > range.recordsDone) pending += s.countRecords.get(range.recordsDone, range.recordsUntil)?.rows ?? 0;
  return pending;
}

/** True while figures are partial: some stored lines are not counted yet. O(1). */
export function usageCounting(backfill: UsageBackfill): boolean {
  const range = backfill.get()?.range.get();
  return range !== undefined && (range.nodesUntil > range.nodesDone || range.recordsUntil > range.recordsDone);
}

function store(s: NonNullable<ReturnType<UsageBackfill['get']>>, replies: readonly CountedReply[]): void {
  for (const { seq, model, usage, facts } of replies) {
    s.insert.run(seq, facts.replyKey, model, usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheCreationTokens, facts.reportedUsd);
  }
}

/** Reads up to `rows` more stored lines in one transaction and counts their replies; returns how many it consumed (0 = done). */
export function backfillUsageChunk(db: WritableDB, backfill: UsageBackfill, rows: number): number {
  const s = backfill.get();
  if (s === null) return 0;
  const limit = Math.max(1, rows);
  return db.transaction(() => {
    const range = s.range.get()!;
    if (range.nodesUntil > range.nodesDone) {
      // In file order, as the import stored them: each reply's first copy is the one counted.
      const replies: CountedReply[] = [];
      let last = range.nodesDone;
      let read = 0;
      let bytes = 0;
      for (const row of s.claudeRows.iterate(range.nodesDone, range.nodesUntil, limit)) {
        last = row.seq;
        read += 1;
        bytes += row.raw_length ?? row.raw.length;
        const line = parse(s.lines, row);
        const usage = line === null ? null : readClaudeUsage(asObject(line.message));
        if (usage !== null) replies.push({ seq: row.seq, model: row.model, usage, facts: claudeFactsOfLine(line) });
        if (bytes >= CHUNK_RAW_BYTES) break;
      }
      store(s, replies);
      // Fewer rows than asked and no byte cut: no Claude Code line is left below `until`.
      const finished = read < limit && bytes < CHUNK_RAW_BYTES;
      s.setMeta.run(USAGE_BACKFILL_KEYS.nodesDone, finished ? range.nodesUntil : last);
      return Math.max(1, read);
    }
    if (range.recordsUntil > range.recordsDone) {
      const replies: CountedReply[] = [];
      let last = range.recordsDone;
      let read = 0;
      let bytes = 0;
      for (const row of s.codexRows.iterate(range.recordsDone, range.recordsUntil, limit)) {
        last = row.id;
        read += 1;
        bytes += row.raw_length ?? row.raw.length;
        if (row.seq !== null && row.kind !== null && CODEX_STEPS.has(row.kind)) {
          const line = parse(s.lines, row);
          const info = asObject(asObject(line?.payload)?.info);
          const lastUsage = asObject(info?.last_token_usage);
          const usage = lastUsage === null ? null : readCodexUsage(lastUsage);
          // The node's key is its seq: a second token_count behind the same step is not counted.
          if (usage !== null) replies.push({ seq: row.seq, model: row.model, usage, facts: { replyKey: null, reportedUsd: null } });
        }
        if (bytes >= CHUNK_RAW_BYTES) break;
      }
      store(s, replies);
      const finished = read < limit && bytes < CHUNK_RAW_BYTES;
      s.setMeta.run(USAGE_BACKFILL_KEYS.recordsDone, finished ? range.recordsUntil : last);
      return Math.max(1, read);
    }
    return 0;
  })();
}
