/**
 * Claude Code's reader of file effects (the neutral shape of importers/transcript.ts, which the reconstruction
 * reads whatever the format): what each node of a session did to files, read from the transcript lines: the file edits its tool results
 * carry, and whether it may have changed files the transcript cannot replay (tool-effects.ts). Only the lines
 * that matter are read: tool-call lines of effectful tools (for their input) and tool-result lines.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeSummary } from '../../../shared/model';
import type { MayWriteReason, ReadRaw, SessionEffects, StepEffects } from '../../importers/transcript';
import { readFileEdit, type ToolUseRef } from './file-edits';
import { toolEffect } from './tool-effects';

export type { MayWriteReason, ReadRaw, SessionEffects };
/** What one node did to files (the neutral StepEffects). */
export type NodeEffects = StepEffects;

interface CallSite {
  readonly nodeIndex: number;
  readonly name: string;
  readonly outcome: 'ok' | 'error' | 'missing';
  input: unknown;
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseLine(raw: string | null): Json | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isJson(value) ? value : null;
  } catch {
    return null; // cut at the store's raw limit, or not JSON
  }
}

function contentBlocks(entry: Json): Json[] {
  const message = entry.message;
  const content = isJson(message) ? message.content : undefined;
  return Array.isArray(content) ? content.filter(isJson) : [];
}

/** The kinds of node whose line can carry tool_result blocks. */
const RESULT_KINDS = new Set(['tool_result', 'error']);


/**
 * Reads the effects of every node. Task/Agent calls are left for the caller to judge by the subagent runs
 * they spawned (subagentCalls / subagentResults).
 */
export async function readSessionEffects(
  nodes: readonly NodeSummary[],
  readRaw: ReadRaw,
  signal: AbortSignal | undefined,
): Promise<SessionEffects> {
  const effects: (NodeEffects | undefined)[] = new Array(nodes.length);
  const effectsOf = (index: number): NodeEffects => (effects[index] ??= { edits: [], mayWrite: null });
  const calls = new Map<string, CallSite>();
  const subagentCalls = new Map<number, number>();
  const subagentResults = new Map<number, number[]>();
  const needInput: number[] = [];

  nodes.forEach((node, index) => {
    let wantsInput = false;
    for (const call of node.toolCalls) {
      const site: CallSite = { nodeIndex: index, name: call.name, outcome: call.outcome, input: undefined };
      calls.set(call.id, site);
      const effect = toolEffect(call.name, {});
      if (effect === 'subagent') subagentCalls.set(index, (subagentCalls.get(index) ?? 0) + 1);
      // A call whose outcome was never recorded may have run: unless it only reads, its effect is unknown.
      if (call.outcome === 'missing' && effect !== 'none') effectsOf(index).mayWrite ??= 'unrecorded-outcome';
      if (effect !== 'none' && effect !== 'subagent') wantsInput = true;
    }
    if (wantsInput) needInput.push(index);
  });
  if (calls.size === 0) return { effects, subagentCalls, subagentResults };

  for (const index of needInput) {
    throwIfAborted(signal);
    const entry = parseLine(await readRaw(nodes[index]!.id));
    if (entry === null) continue;
    for (const block of contentBlocks(entry)) {
      if (block.type !== 'tool_use' || typeof block.id !== 'string') continue;
      const site = calls.get(block.id);
      if (site !== undefined && site.nodeIndex === index) site.input = block.input;
    }
  }
  // Read-only shell calls are known once their input is: drop the unrecorded-outcome mark for them.
  for (const site of calls.values()) {
    if (site.outcome === 'missing' && toolEffect(site.name, site.input) === 'none') {
      const effect = effects[site.nodeIndex];
      if (effect !== undefined && effect.mayWrite === 'unrecorded-outcome' && onlyReadOnlyMissing(nodes[site.nodeIndex]!, calls)) effect.mayWrite = null;
    }
  }

  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (!RESULT_KINDS.has(node.kind)) continue;
    if ((index & 255) === 0) throwIfAborted(signal);
    const raw = await readRaw(node.id);
    const entry = parseLine(raw);
    if (entry === null) {
      if (raw !== null) effectsOf(index).mayWrite ??= 'unreadable-result';
      continue;
    }
    const results = contentBlocks(entry).filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string');
    for (const block of results) {
      const site = calls.get(block.tool_use_id as string);
      if (site === undefined) continue; // a result whose call is not in this session: nothing to replay
      const isError = block.is_error === true;
      const effect = toolEffect(site.name, site.input);
      switch (effect) {
        case 'none':
          break;
        case 'file-edit': {
          const ref: ToolUseRef = { id: block.tool_use_id as string, name: site.name, input: site.input };
          // One line carries one toolUseResult: with several results on a line it belongs to none of them for sure.
          const edit = results.length === 1 ? readFileEdit(ref, entry.toolUseResult, isError) : null;
          if (edit !== null) effectsOf(index).edits.push(edit);
          else if (!isError && results.length > 1) effectsOf(index).mayWrite ??= 'unreadable-result';
          break;
        }
        case 'subagent': {
          const list = subagentResults.get(site.nodeIndex) ?? [];
          if (!list.includes(index)) list.push(index);
          subagentResults.set(site.nodeIndex, list);
          break;
        }
        case 'may-write':
          effectsOf(index).mayWrite ??= site.name === 'Bash' || site.name === 'PowerShell' ? 'shell' : 'other-tool';
          break;
      }
    }
  }
  return { effects, subagentCalls, subagentResults };
}

function onlyReadOnlyMissing(node: NodeSummary, calls: ReadonlyMap<string, CallSite>): boolean {
  return node.toolCalls.every((call) => call.outcome !== 'missing' || toolEffect(call.name, calls.get(call.id)?.input) === 'none');
}
