/**
 * Claude Code's reader of file effects (the neutral shape of importers/transcript.ts, which the reconstruction
 * reads whatever the format): what each node of a session did to files, read from the transcript lines: the file edits its tool results
 * carry, and whether it may have changed files the transcript cannot replay (tool-effects.ts). Only the lines
 * that matter are read: tool-call lines of effectful tools (for their input) and tool-result lines, of which,
 * when the import kept the calls each result line answers (resultIdsOf), only those answering a file edit.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeSummary } from '../../../shared/model';
import { contentBlocks, RESULT_KINDS, toolResultBlocks } from '../../importers/claude-code/result-ids';
import type { KeepEffect, MayWriteReason, ReadRaw, ReadRecords, ResultIdsOf, SessionEffects, StepEffects } from '../../importers/transcript';
import { readFileEdit, type ToolUseRef } from './file-edits';
import { toolEffect, type ToolEffect } from './tool-effects';

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

/**
 * Reads the effects of every node. Task/Agent calls are left for the caller to judge by the subagent runs
 * they spawned (subagentCalls / subagentResults).
 */
export async function readSessionEffects(
  nodes: readonly NodeSummary[],
  readRaw: ReadRaw,
  signal: AbortSignal | undefined,
  _readRecords?: ReadRecords,
  resultIdsOf?: ResultIdsOf,
  keepEffect: KeepEffect = (effect) => effect,
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

  /** What answering a call that is no file edit does at the result's node (a file edit's needs the result's text). */
  const answer = (index: number, site: CallSite, effect: Exclude<ToolEffect, 'file-edit'>) => {
    switch (effect) {
      case 'none':
        break;
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
  };
  // A file edit is told by its name alone (tool-effects.ts), before any input is read.
  const answersFileEdit = (ids: readonly string[]) => ids.some((id) => {
    const site = calls.get(id);
    return site !== undefined && toolEffect(site.name, site.input) === 'file-edit';
  });
  /** What a result line does, from its parsed line (null: unreadable; raw null: no line) or from its kept ids alone. */
  const settle = (index: number, line: { readonly raw: string | null; readonly entry: Json | null } | readonly string[]) => {
    if (!('raw' in line)) {
      for (const id of line) {
        const site = calls.get(id);
        if (site !== undefined) answer(index, site, toolEffect(site.name, site.input) as Exclude<ToolEffect, 'file-edit'>);
      }
      return;
    }
    const { raw, entry } = line;
    if (entry === null) {
      if (raw !== null) effectsOf(index).mayWrite ??= 'unreadable-result';
      return;
    }
    const results = toolResultBlocks(entry);
    for (const block of results) {
      const site = calls.get(block.tool_use_id as string);
      if (site === undefined) continue; // a result whose call is not in this session: nothing to replay
      const isError = block.is_error === true;
      const effect = toolEffect(site.name, site.input);
      if (effect !== 'file-edit') {
        answer(index, site, effect);
        continue;
      }
      const ref: ToolUseRef = { id: block.tool_use_id as string, name: site.name, input: site.input };
      // One line carries one toolUseResult: with several results on a line it belongs to none of them for sure.
      const edit = results.length === 1 ? readFileEdit(ref, entry.toolUseResult, isError) : null;
      if (edit !== null) effectsOf(index).edits.push(keepEffect(edit));
      else if (!isError && results.length > 1) effectsOf(index).mayWrite ??= 'unreadable-result';
    }
  };
  const readResult = async (index: number) => {
    const raw = await readRaw(nodes[index]!.id);
    return { raw, entry: parseLine(raw) };
  };

  // One pass in transcript order reads the calls' inputs and the results together, so the blocks of stored lines
  // are decoded once (two passes decoded every block twice: most of the cost). A result is settled where it is
  // when every call it answers has its input by then (the calls come first, nearly always); the others wait for
  // the end, as does a result line that carries calls of its own (the read-only drop below may change its mark).
  // The calls a line answers, kept at import (resultIdsOf), tell all but a file edit's outcome: most result lines
  // (a Read's file, a command's output) are never read. The same blocks in the same order as reading gives.
  const inputAt = new Uint8Array(nodes.length);
  for (const index of needInput) inputAt[index] = 1;
  const inputsRead = (index: number, ids: readonly string[]) =>
    ids.every((id) => {
      const site = calls.get(id);
      return site === undefined || site.nodeIndex < index || inputAt[site.nodeIndex] === 0;
    });
  const waiting: number[] = [];
  for (let index = 0; index < nodes.length; index++) {
    if ((index & 255) === 0) throwIfAborted(signal);
    const node = nodes[index]!;
    if (inputAt[index] === 1) {
      throwIfAborted(signal);
      const entry = parseLine(await readRaw(node.id));
      for (const block of entry === null ? [] : contentBlocks(entry)) {
        if (block.type !== 'tool_use' || typeof block.id !== 'string') continue;
        const site = calls.get(block.id);
        if (site !== undefined && site.nodeIndex === index) site.input = block.input;
      }
    }
    if (!RESULT_KINDS.has(node.kind)) continue;
    const kept = resultIdsOf?.(node.id);
    if (node.toolCalls.length > 0 || (kept !== undefined && !inputsRead(index, kept))) {
      waiting.push(index);
      continue;
    }
    if (kept !== undefined && !answersFileEdit(kept)) {
      settle(index, kept);
      continue;
    }
    const line = await readResult(index);
    if (line.entry !== null && !inputsRead(index, toolResultBlocks(line.entry).map((block) => block.tool_use_id as string))) waiting.push(index);
    else settle(index, line);
  }
  // Read-only shell calls are known once their input is: drop the unrecorded-outcome mark for them.
  for (const site of calls.values()) {
    if (site.outcome === 'missing' && toolEffect(site.name, site.input) === 'none') {
      const effect = effects[site.nodeIndex];
      if (effect !== undefined && effect.mayWrite === 'unrecorded-outcome' && onlyReadOnlyMissing(nodes[site.nodeIndex]!, calls)) effect.mayWrite = null;
    }
  }
  for (const index of waiting) {
    throwIfAborted(signal);
    const kept = resultIdsOf?.(nodes[index]!.id);
    settle(index, kept !== undefined && !answersFileEdit(kept) ? kept : await readResult(index));
  }
  return { effects, subagentCalls, subagentResults };
}

function onlyReadOnlyMissing(node: NodeSummary, calls: ReadonlyMap<string, CallSite>): boolean {
  return node.toolCalls.every((call) => call.outcome !== 'missing' || toolEffect(call.name, calls.get(call.id)?.input) === 'none');
}
