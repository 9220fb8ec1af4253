/**
 * The merge-summary block (issue 15, "Merge back into the conversation"). A conversation has no merge base, so
 * Arbor hands the other branch's history to the agent: after ours' path, one user-role text message that the
 * resumed agent reads, marked so that Arbor's importers read it back as a merge summary, never as a prompt or
 * a title. The marker is the text's first line (what every agent keeps: the model sees it as written), so it
 * survives any agent that round-trips the message; Claude Code lines also carry `arborMergeSummary`.
 */
import type { MergedFile } from './operations';

export const MERGE_SUMMARY_VERSION = 1;
export const MERGE_SUMMARY_OPEN = `<arbor-merge-summary version="${MERGE_SUMMARY_VERSION}">`;
export const MERGE_SUMMARY_CLOSE = '</arbor-merge-summary>';
/** The top-level field of a Claude Code line that carries the block (unknown fields are kept by Claude Code). */
export const MERGE_SUMMARY_FIELD = 'arborMergeSummary';

/** Any version: a newer Arbor's block is still a merge summary to an older one. */
const MARKER = /^\s*<arbor-merge-summary version="\d+">/;

export function isMergeSummaryText(text: string): boolean {
  return MARKER.test(text);
}

export interface SummaryTurn {
  readonly prompt: string;
  /** The final text reply of the turn (null: the turn ended without one). */
  readonly conclusion: string | null;
}

export interface MergeSummaryFacts {
  /** Theirs' session title and node label, so the agent can tell the branches apart. */
  readonly theirsTitle: string | null;
  readonly theirsLabel: string;
  /** The fork point (the merge base) as the graph labels it; null when the branches share no node. */
  readonly baseLabel: string | null;
  readonly dir: string;
  readonly turns: readonly SummaryTurn[];
  /** Turns older than those listed, left out to keep the block short. */
  readonly turnsLeftOut: number;
  readonly files: readonly MergedFile[];
}

/** Limits that keep the block a summary: a long run keeps its newest turns, long texts their head. */
export const SUMMARY_LIMITS = { turns: 40, prompt: 1_200, conclusion: 2_000, files: 300 } as const;

export function trimText(text: string, limit: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  // Cut at a line or word end near the limit, so the agent never reads half a word.
  const head = trimmed.slice(0, limit);
  const at = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '));
  return `${(at > limit * 0.6 ? head.slice(0, at) : head).trimEnd()} […]`;
}

/** The text the agent reads: what theirs did since the fork point, and how each merged file was settled. */
export function renderMergeSummary(facts: MergeSummaryFacts): string {
  const theirs = facts.theirsTitle === null ? `“${facts.theirsLabel}”` : `“${facts.theirsLabel}” in the session “${facts.theirsTitle}”`;
  // Blank lines around the tags: Markdown takes a tag line and what follows it up to a blank line as one HTML block
  // (shown as nothing), so the text would vanish from the app's views; the model reads it the same either way.
  const out: string[] = [MERGE_SUMMARY_OPEN, ''];
  out.push(
    "This message is not a request from the user: Arbor wrote it when the user merged another branch of this conversation into this one.",
    `Everything above is this branch ("ours"). The other branch ("theirs", ${theirs}) went on from ${facts.baseLabel === null ? 'a separate start' : `the same point (“${facts.baseLabel}”)`}; below is what it did.`,
    `The files in ${facts.dir} now hold the merge of both branches. Take both histories into account, then wait for the user's next request.`,
    '',
    `## Theirs' turns since the fork point (${facts.turns.length + facts.turnsLeftOut})`,
  );
  if (facts.turnsLeftOut > 0) out.push(`(${facts.turnsLeftOut} earlier turns left out)`);
  if (facts.turns.length === 0) out.push('(none: theirs has no prompt of its own since the fork point)');
  facts.turns.forEach((turn, index) => {
    out.push(`${facts.turnsLeftOut + index + 1}. User: ${indent(trimText(turn.prompt, SUMMARY_LIMITS.prompt))}`);
    out.push(`   - Assistant's conclusion: ${turn.conclusion === null ? '(no final reply)' : indent(trimText(turn.conclusion, SUMMARY_LIMITS.conclusion))}`);
  });
  const changed = facts.files.filter((file) => file.changedBy !== 'ours');
  out.push('', `## Files theirs changed (${changed.length})`);
  if (changed.length === 0) out.push('(none)');
  for (const file of changed.slice(0, SUMMARY_LIMITS.files)) out.push(`- ${file.path} (${file.status === 'deleted' ? 'deleted' : file.status === 'added' ? 'added' : 'changed'}${file.changedBy === 'both' ? ', ours changed it too' : ''})`);
  if (changed.length > SUMMARY_LIMITS.files) out.push(`- … and ${changed.length - SUMMARY_LIMITS.files} more`);
  out.push('', `## How the merge settled each file (${facts.files.length})`);
  if (facts.files.length === 0) out.push('(no file differed)');
  for (const file of facts.files.slice(0, SUMMARY_LIMITS.files)) out.push(`- ${file.path}: ${settled(file)}`);
  if (facts.files.length > SUMMARY_LIMITS.files) out.push(`- … and ${facts.files.length - SUMMARY_LIMITS.files} more`);
  out.push('', MERGE_SUMMARY_CLOSE);
  return out.join('\n');
}

function settled(file: MergedFile): string {
  if (file.conflict === undefined) {
    const how = file.resolution === 'automatic' ? 'merged cleanly' : file.resolution === 'manual' ? 'edited by the user' : `took ${versionOf(file.resolution)} version`;
    return `${how} (${file.changedBy === 'both' ? 'both changed it' : `${file.changedBy} changed it`})`;
  }
  const how = file.resolution === 'manual' ? 'resolved by hand' : file.resolution === 'automatic' ? 'left as merged' : `resolved with ${versionOf(file.resolution)} version`;
  return `conflict (${file.conflict}), ${how}`;
}

function versionOf(resolution: MergedFile['resolution']): string {
  return resolution === 'base' ? "the base's" : `${resolution}'`;
}

/** Later lines of a multi-line text stay inside its list item. */
function indent(text: string): string {
  return text.replace(/\n/g, '\n     ');
}

/** The graph's label for a summary node: a count, never the block's text (its first words are Arbor's). */
export function mergeSummaryLabel(text: string): string {
  const turns = /## Theirs' turns since the fork point \((\d+)\)/.exec(text)?.[1];
  const files = /## How the merge settled each file \((\d+)\)/.exec(text)?.[1];
  const count = (n: string, noun: string): string => `${n} ${noun}${n === '1' ? '' : 's'}`;
  const parts = [turns === undefined ? null : `${count(turns, 'turn')} of theirs`, files === undefined ? null : count(files, 'file')].filter((part) => part !== null);
  return parts.length === 0 ? 'Merge summary' : `Merge summary: ${parts.join(', ')}`;
}
