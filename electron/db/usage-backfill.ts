/**
 * Fills `node_usage` for a store written before migration 023, from the raw lines it already keeps (no
 * transcript is read): Claude Code nodes whose line carries `message.usage`, and Codex steps from the
 * token_count records stored behind them — what the import now counts as it stores each batch.
 */
import { readUsage as readClaudeUsage } from '../importers/claude-code/json-shape';
import { readUsage as readCodexUsage } from '../importers/codex/rollout-entry';
import type { WritableDB } from './database';
import { decodeRaw } from './raw-line';
import { claudeFactsOfLine, prepareUsageWrites, storeReplies, type CountedReply } from './usage-replies';

/** Rows read between writes: the backfill holds a bounded batch whatever the store's size. */
const CHUNK = 2000;
const CODEX_STEPS = new Set(['assistant', 'tool_call', 'thinking']);

function parse(raw: Buffer, codec: number): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(decodeRaw(raw, codec).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export function backfillUsage(db: WritableDB): void {
  const writes = prepareUsageWrites(db);
  const claudeRows = db.prepare<[number, number], { seq: number; model: string | null; raw: Buffer; raw_codec: number }>(
    `SELECT n.seq, n.model, n.raw, n.raw_codec FROM nodes n JOIN files f ON f.id = n.file_id
     WHERE f.format = 'claude-code' AND n.seq > ? AND n.kind IN ('assistant', 'thinking', 'tool_call', 'compaction', 'system', 'user', 'error')
     ORDER BY n.seq LIMIT ?`,
  );
  // In file order, as the import stored them: each node's first copy is the one counted.
  for (let after = 0; ; ) {
    const rows = claudeRows.all(after, CHUNK);
    if (rows.length === 0) break;
    const replies: CountedReply[] = [];
    for (const row of rows) {
      after = row.seq;
      const line = parse(row.raw, row.raw_codec);
      const usage = line === null ? null : readClaudeUsage(asObject(line.message));
      if (usage === null) continue;
      replies.push({ seq: row.seq, model: row.model, usage, facts: claudeFactsOfLine(line) });
    }
    storeReplies(writes, replies);
  }

  const codexRows = db.prepare<[number, number], { id: number; seq: number | null; kind: string | null; model: string | null; raw: Buffer; raw_codec: number }>(
    `SELECT r.id, n.seq, n.kind, n.model, r.raw, r.raw_codec FROM records r JOIN files f ON f.id = r.file_id
     LEFT JOIN nodes n ON n.id = r.ref_source_id
     WHERE f.format = 'codex' AND r.type = 'token_count' AND r.id > ? ORDER BY r.id LIMIT ?`,
  );
  for (let after = 0; ; ) {
    const rows = codexRows.all(after, CHUNK);
    if (rows.length === 0) break;
    const replies: CountedReply[] = [];
    for (const row of rows) {
      after = row.id;
      if (row.seq === null || row.kind === null || !CODEX_STEPS.has(row.kind)) continue;
      const line = parse(row.raw, row.raw_codec);
      const info = asObject(asObject(line?.payload)?.info);
      const last = asObject(info?.last_token_usage);
      const usage = last === null ? null : readCodexUsage(last);
      // The node's key is its seq: a second token_count behind the same step is not counted (INSERT OR IGNORE).
      if (usage !== null) replies.push({ seq: row.seq, model: row.model, usage, facts: { replyKey: null, reportedUsd: null } });
    }
    storeReplies(writes, replies);
  }
}
