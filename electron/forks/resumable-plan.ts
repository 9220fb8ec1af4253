/**
 * Which transcript lines a resumable copy holds, in which order (FORMATS.md §1.10 (b) and (d)): the path from
 * the root to the fork point, then the rest of the fork point's turn (the other lines of its API message and
 * the results of its tool calls), so every tool_use is answered in the next message and every tool_result
 * answers a tool_use just before it. Results that Claude Code left hanging beside the chain (parallel tool
 * calls, FORMATS.md §1.5) are moved onto it; calls whose outcome was never recorded lose their whole
 * assistant message (a thinking block is kept whole or not at all), and results without their call are dropped.
 */
import { ArborError } from '../../shared/errors';
import { isConversational, type TranscriptEntry } from './transcript-entry';

/** The session's lines as the planner reads them (electron/forks/transcript-source.ts reads them from the store). */
export interface TranscriptSource {
  /** The node's parent in Arbor's graph (null at a root), or undefined when the node is unknown. */
  parentOf(id: string): string | null | undefined;
  isSidechain(id: string): boolean;
  /** Main-line children in transcript order. */
  childrenOf(id: string): readonly string[];
  /** The node's whole line; throws ArborError when it cannot be read in full. */
  entry(id: string): Promise<TranscriptEntry>;
  /** The node carrying the result of `toolUseId`, called on line `callId`, when one was recorded. */
  resultOf(callId: string, toolUseId: string): string | null;
}

export interface PlannedLine {
  readonly entry: TranscriptEntry;
  /** The parentUuid the copy writes: the previous line's uuid (null for the first). */
  readonly parentUuid: string | null;
}

export interface DroppedLine {
  readonly id: string;
  readonly reason: 'tool call without a recorded result' | 'tool result without its call';
}

export interface ResumablePlan {
  readonly target: string;
  readonly lines: readonly PlannedLine[];
  /** Lines after the target that complete its turn. */
  readonly completedBy: readonly string[];
  /** False when the target's own message had to be dropped (its tool call has no recorded result). */
  readonly targetKept: boolean;
  readonly dropped: readonly DroppedLine[];
}

export type ResumablePlanOutcome = { readonly resumable: true; readonly plan: ResumablePlan } | { readonly resumable: false; readonly reason: string };

/** How many side-channel lines (progress, hooks, system) may sit between a call and its result. */
const MAX_BRIDGE_LINES = 64;

export async function planResumableTranscript(source: TranscriptSource, target: string): Promise<ResumablePlanOutcome> {
  if (source.parentOf(target) === undefined) throw new ArborError('NOT_FOUND', `No node ${target}`, { nodeId: target });
  if (source.isSidechain(target)) return { resumable: false, reason: 'the node is a step of a subagent run, which Claude Code cannot resume on its own' };
  const seq: TranscriptEntry[] = [];
  for (const id of pathTo(source, target)) seq.push(await source.entry(id));
  await completeTurn(source, seq);
  await attachStrayResults(source, seq);
  const dropped = dropUnpaired(seq);
  if (!seq.some(isConversational)) return { resumable: false, reason: 'no message precedes the node, so there is no conversation to resume' };
  const kept = new Set(seq.map((entry) => entry.id));
  const lines = seq.map((entry, index) => ({ entry, parentUuid: index === 0 ? null : seq[index - 1]!.id }));
  const targetIndex = seq.findIndex((entry) => entry.id === target);
  const completedBy = targetIndex < 0 ? [] : seq.slice(targetIndex + 1).map((entry) => entry.id);
  return { resumable: true, plan: { target, lines, completedBy, targetKept: kept.has(target), dropped } };
}

/** Root → target along Arbor's parent links (cycles are already broken by the linker; guarded anyway). */
function pathTo(source: TranscriptSource, target: string): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id: string | null | undefined = target; id !== null && id !== undefined && !seen.has(id); id = source.parentOf(id)) {
    seen.add(id);
    path.push(id);
  }
  return path.reverse();
}

/** Tool uses in `seq` whose result is not in `seq`, in order, with the line carrying each. */
function unanswered(seq: readonly TranscriptEntry[]): { readonly line: TranscriptEntry; readonly toolUseId: string; readonly index: number }[] {
  const answered = new Set(seq.flatMap((entry) => entry.toolResults));
  const pending: { line: TranscriptEntry; toolUseId: string; index: number }[] = [];
  seq.forEach((line, index) => {
    for (const toolUseId of line.toolUses) if (!answered.has(toolUseId)) pending.push({ line, toolUseId, index });
  });
  return pending;
}

/**
 * The chain of lines below `from` that reaches a line `isGoal` accepts, passing only through side-channel
 * lines (breadth first, children in transcript order); null when there is none within reach.
 */
async function findBelow(source: TranscriptSource, from: string, isGoal: (entry: TranscriptEntry) => boolean): Promise<TranscriptEntry[] | null> {
  let frontier: { readonly id: string; readonly chain: readonly TranscriptEntry[] }[] = [{ id: from, chain: [] }];
  for (let depth = 0; depth <= MAX_BRIDGE_LINES && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const { id, chain } of frontier) {
      for (const child of source.childrenOf(id)) {
        const entry = await source.entry(child);
        if (isGoal(entry)) return [...chain, entry];
        if (!isConversational(entry)) next.push({ id: child, chain: [...chain, entry] });
      }
    }
    frontier = next;
  }
  return null;
}

/** Extends `seq` past the target until its turn is whole: its message's other lines, its calls' results, a compaction's summary. */
async function completeTurn(source: TranscriptSource, seq: TranscriptEntry[]): Promise<void> {
  for (;;) {
    const last = seq.at(-1)!;
    let chain: TranscriptEntry[] | null = null;
    if (last.compactBoundary) {
      chain = await findBelow(source, last.id, (entry) => entry.compactSummary);
    } else if (last.type === 'assistant' && last.messageId !== null) {
      const messageId = last.messageId;
      chain = await findBelow(source, last.id, (entry) => entry.type === 'assistant' && entry.messageId === messageId);
    }
    if (chain === null) {
      const pending = unanswered(seq);
      const wanted = new Set(pending.map((use) => source.resultOf(use.line.id, use.toolUseId)).filter((id): id is string => id !== null));
      if (wanted.size > 0) chain = await findBelow(source, last.id, (entry) => wanted.has(entry.id));
    }
    if (chain === null) return;
    seq.push(...chain);
  }
}

/**
 * A result Claude Code hung beside the chain (the parallel-call ladder) is moved onto it: just after the
 * call's assistant message, where the API expects it.
 */
async function attachStrayResults(source: TranscriptSource, seq: TranscriptEntry[]): Promise<void> {
  const placed = new Set(seq.map((entry) => entry.id));
  for (const use of unanswered(seq)) {
    const resultId = source.resultOf(use.line.id, use.toolUseId);
    if (resultId === null || placed.has(resultId) || source.isSidechain(resultId)) continue;
    const result = await source.entry(resultId);
    const at = seq.indexOf(use.line);
    let insertAt = at + 1;
    while (insertAt < seq.length) {
      const next = seq[insertAt]!;
      const sameMessage = next.type === 'assistant' && next.messageId !== null && next.messageId === use.line.messageId;
      if (!sameMessage && isConversational(next)) break;
      insertAt++;
    }
    seq.splice(insertAt, 0, result);
    placed.add(resultId);
  }
}

/**
 * Drops what the API would reject, until nothing is left to drop: an assistant message with a tool_use not
 * answered in the next message goes whole; a user line with a tool_result not answering the message before it goes.
 */
function dropUnpaired(seq: TranscriptEntry[]): DroppedLine[] {
  const dropped: DroppedLine[] = [];
  for (;;) {
    const { unansweredCalls, orphanResults } = pairingProblems(seq);
    if (unansweredCalls.size === 0 && orphanResults.size === 0) return dropped;
    const messages = new Set([...unansweredCalls].map((entry) => entry.messageId ?? entry.id));
    for (let index = seq.length - 1; index >= 0; index--) {
      const entry = seq[index]!;
      if (entry.type === 'assistant' && messages.has(entry.messageId ?? entry.id)) {
        dropped.push({ id: entry.id, reason: 'tool call without a recorded result' });
        seq.splice(index, 1);
      } else if (orphanResults.has(entry) && unansweredCalls.size === 0) {
        // Calls go first: dropping one may orphan results that are then dropped on the next round.
        dropped.push({ id: entry.id, reason: 'tool result without its call' });
        seq.splice(index, 1);
      }
    }
  }
}

/** One API message: consecutive conversational lines of one role (the API merges them). */
interface ApiMessage {
  readonly role: 'user' | 'assistant';
  readonly lines: TranscriptEntry[];
}

export function apiMessages(seq: readonly TranscriptEntry[]): ApiMessage[] {
  const messages: ApiMessage[] = [];
  for (const entry of seq) {
    if (!isConversational(entry)) continue;
    const role = entry.type === 'assistant' ? 'assistant' : 'user';
    const last = messages.at(-1);
    if (last?.role === role) last.lines.push(entry);
    else messages.push({ role, lines: [entry] });
  }
  return messages;
}

/** The pairing rule of FORMATS.md §1.10 (d) over the copy's API messages. */
export function pairingProblems(seq: readonly TranscriptEntry[]): { unansweredCalls: Set<TranscriptEntry>; orphanResults: Set<TranscriptEntry> } {
  const messages = apiMessages(seq);
  const unansweredCalls = new Set<TranscriptEntry>();
  const orphanResults = new Set<TranscriptEntry>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const next = messages[index + 1];
      const answers = new Set(next?.role === 'user' ? next.lines.flatMap((line) => line.toolResults) : []);
      for (const line of message.lines) if (line.toolUses.some((id) => !answers.has(id))) unansweredCalls.add(line);
    } else {
      const previous = messages[index - 1];
      const calls = new Set(previous?.role === 'assistant' ? previous.lines.flatMap((line) => line.toolUses) : []);
      const seen = new Set<string>();
      for (const line of message.lines) {
        for (const id of line.toolResults) {
          if (!calls.has(id) || seen.has(id)) orphanResults.add(line);
          seen.add(id);
        }
      }
    }
  });
  return { unansweredCalls, orphanResults };
}
