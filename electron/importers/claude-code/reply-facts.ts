/**
 * Which billed reply a Claude Code line belongs to (FORMATS.md §1: a reply's content blocks are written one a
 * line, each repeating the reply's `message.usage`), read from the parsed line: the parser reads it while it has
 * the line parsed, and the usage backfill (electron/db/usage-backfill.ts) from the stored line, by the same rule.
 */

/** What one line says about the reply it belongs to. */
export interface ReplyFacts {
  /** `msg:<message.id>` (Claude Code); null: the line is its own reply. */
  readonly replyKey: string | null;
  /** Old Claude Code lines' `costUSD`: the agent's own price of the reply. */
  readonly reportedUsd: number | null;
}

export const NO_REPLY_FACTS: ReplyFacts = { replyKey: null, reportedUsd: null };

export function claudeFactsOfLine(line: unknown): ReplyFacts {
  if (typeof line !== 'object' || line === null) return NO_REPLY_FACTS;
  const record = line as Record<string, unknown>;
  const message = record.message;
  const id = typeof message === 'object' && message !== null ? (message as Record<string, unknown>).id : undefined;
  const cost = record.costUSD;
  return {
    replyKey: typeof id === 'string' && id.length > 0 ? `msg:${id}` : null,
    reportedUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null,
  };
}
