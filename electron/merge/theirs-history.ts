/**
 * What theirs did since the fork point, as the merge-summary block tells it (shared/merge-summary.ts): each of
 * its turns as the user's prompt and the assistant's conclusion (the turn's last text reply), read from the
 * stored lines of theirs' path below the merge base. Subagent steps and Arbor's own nodes are not turns.
 */
import type { SessionStore } from '../db/session-store';
import { readAnyNodeContent } from '../importers/registry';
import { SUMMARY_LIMITS, type SummaryTurn } from '../../shared/merge-summary';
import type { NodeGraph } from './node-graph';

export interface TheirsTurns {
  readonly turns: readonly SummaryTurn[];
  readonly turnsLeftOut: number;
}

/** `path`: theirs' nodes after the merge base, oldest first (node-graph.ts pathBelow). */
export function theirsTurns(store: SessionStore, graph: NodeGraph, path: readonly string[]): TheirsTurns {
  const turns: { prompt: string; conclusion: string | null }[] = [];
  for (const id of path) {
    const summary = graph.node(id)?.summary;
    if (summary === undefined || summary.sidechain) continue;
    if (summary.kind !== 'user' && summary.kind !== 'assistant') continue;
    const text = nodeText(store, id) ?? summary.label;
    if (summary.kind === 'user') turns.push({ prompt: text, conclusion: null });
    else if (turns.length > 0 && text.trim().length > 0) turns.at(-1)!.conclusion = text;
  }
  const kept = turns.slice(-SUMMARY_LIMITS.turns);
  return { turns: kept, turnsLeftOut: turns.length - kept.length };
}

/** The node's text blocks joined (a prompt, a reply), or null when its line cannot be read. */
function nodeText(store: SessionStore, id: string): string | null {
  const stored = store.getNode(id);
  if (stored === null) return null;
  const content = readAnyNodeContent(stored.raw.toString('utf8'), stored.format);
  const texts = content.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  return texts.length === 0 ? null : texts.join('\n');
}
