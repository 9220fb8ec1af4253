/**
 * The merge-summary block as each agent's transcript carries it, after ours' path:
 * - Claude Code: a `user` line whose message is one text block (what a resumed Claude Code sends the model as
 *   the user's turn; `isMeta` lines are hidden or dropped by some versions, so the block is a plain message),
 *   chained to the copy's last line, with `arborMergeSummary` naming the merge for Arbor's importer.
 * - Codex: a `response_item` message with the `developer` role (model-visible history that Codex does not
 *   count as a user turn, so the resumed thread's turn structure stays as the fork left it).
 * Either way the text opens with the marker line (shared/merge-summary.ts) that the importers read it back by.
 */
import { MERGE_SUMMARY_FIELD, MERGE_SUMMARY_VERSION } from '../../shared/merge-summary';

export interface SummaryLineContext {
  readonly uuid: string;
  readonly sessionId: string;
  readonly parentUuid: string | null;
  readonly cwd: string;
  readonly timestamp: Date;
  /** The Claude Code version of the copy's last line, so the line looks like its neighbours. */
  readonly version: string | null;
  readonly operation: string;
  readonly mergeNode: string;
  readonly theirsNode: string;
}

export function claudeSummaryLine(text: string, context: SummaryLineContext): string {
  return JSON.stringify({
    parentUuid: context.parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: context.cwd,
    sessionId: context.sessionId,
    ...(context.version === null ? {} : { version: context.version }),
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text }] },
    uuid: context.uuid,
    timestamp: context.timestamp.toISOString(),
    [MERGE_SUMMARY_FIELD]: { version: MERGE_SUMMARY_VERSION, operation: context.operation, mergeNode: context.mergeNode, theirsNode: context.theirsNode },
  });
}

export function codexSummaryLine(text: string, timestamp: Date): string {
  return JSON.stringify({
    timestamp: timestamp.toISOString(),
    type: 'response_item',
    payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] },
  });
}
