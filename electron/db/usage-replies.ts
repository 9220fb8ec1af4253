/**
 * The counted replies of the store (migration 023, `node_usage`): one row per reply an agent was billed for,
 * on the first node that carried it. Claude Code writes one line per content block of a reply and repeats the
 * reply's `message.usage` on each (FORMATS.md §1: 679 of 1015 `message.id`s span several lines), so a reply is
 * keyed by its `message.id` and counted once, whichever session or file the line landed in (a resume's or a
 * fork's copy of the line names the same id). A Codex step has its turn's `last_token_usage` (the importer gives
 * each token_count to the step it follows, once), keyed by the node.
 */
import type { TokenUsage } from '../../shared/model';
import type { WritableDB } from './database';
import { claudeFactsOfLine, NO_REPLY_FACTS, type ReplyFacts } from '../importers/claude-code/reply-facts';

export { claudeFactsOfLine, type ReplyFacts };

export interface CountedReply {
  readonly seq: number;
  readonly model: string | null;
  readonly usage: TokenUsage;
  readonly facts: ReplyFacts;
}

export function prepareUsageWrites(db: WritableDB) {
  return {
    insert: db.prepare<[number, string | null, string | null, number, number, number, number, number | null]>(
      `INSERT OR IGNORE INTO node_usage (node_seq, reply_key, model, input, output, cache_read, cache_write, reported_usd)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}
export type UsageWrites = ReturnType<typeof prepareUsageWrites>;

/** Stores a batch's replies; a reply already counted (same key) adds nothing. O(replies). */
export function storeReplies(writes: UsageWrites, replies: readonly CountedReply[]): void {
  for (const reply of replies) {
    const { usage, facts } = reply;
    writes.insert.run(
      reply.seq, facts.replyKey, reply.model,
      usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheCreationTokens, facts.reportedUsd,
    );
  }
}

const MESSAGE = Buffer.from('"message":{');
const ID = Buffer.from('"id":"');
const CONTENT = Buffer.from('"content":');
const COST = Buffer.from('"costUSD":');

/**
 * A Claude Code line's reply id and reported cost from its stored bytes, for a line the parser did not read them
 * from (ParsedNode.reply), without parsing the whole line: Claude Code writes compact JSON with `message.id`
 * before `message.content`. Anything else (spaces, another key order) is parsed.
 */
export function claudeReplyFacts(raw: Buffer): ReplyFacts {
  const message = raw.indexOf(MESSAGE);
  if (message < 0) return parsedFacts(raw);
  const id = raw.indexOf(ID, message);
  const content = raw.indexOf(CONTENT, message);
  if (id < 0 || (content >= 0 && content < id)) return parsedFacts(raw);
  const end = raw.indexOf(0x22, id + ID.length);
  if (end < 0) return parsedFacts(raw);
  return { replyKey: `msg:${raw.toString('utf8', id + ID.length, end)}`, reportedUsd: reportedCost(raw) };
}

function reportedCost(raw: Buffer): number | null {
  const at = raw.lastIndexOf(COST);
  if (at < 0) return null;
  const match = /^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(raw.toString('latin1', at + COST.length, at + COST.length + 40));
  const value = match === null ? NaN : Number(match[1]);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

function parsedFacts(raw: Buffer): ReplyFacts {
  let line: unknown;
  try {
    line = JSON.parse(raw.toString('utf8'));
  } catch {
    return NO_REPLY_FACTS; // a line cut at RAW_LIMIT: counted as its own reply
  }
  return claudeFactsOfLine(line);
}
