/**
 * Linked Codex rollouts for tests and the demo (issue 14), written as Codex writes them (FORMATS.md §2.3, and
 * electron/importers/codex/lineage.ts for what each relies on):
 * - a fork: its own `session_meta` with `forked_from_id`, the source's lines up to a turn copied with the
 *   fork's write time, then its own turns;
 * - a resume written into a new file: a new `session_meta`, the old thread's lines (its `session_meta` first);
 * - a subagent: the parent's `spawn_agent` call, `collab_agent_spawn_end` naming the new thread, the output
 *   `{"agent_id": …}`, and the child's rollout whose `source.subagent` names the parent.
 */
import { RolloutBuilder, type RolloutScope } from './codex-rollout';

/** The source's lines after its session_meta up to `copiedLines` of them (all when omitted), as a copy writes them at `at`. */
function copiesOf(source: readonly string[], at: string, copiedLines: number | undefined, withMeta: boolean): string[] {
  const body = source.slice(withMeta ? 0 : 1, copiedLines === undefined ? undefined : 1 + copiedLines);
  return body.map((line) => JSON.stringify({ ...(JSON.parse(line) as Record<string, unknown>), timestamp: at }));
}

export interface ForkOptions {
  /** How many of the source's lines after its session_meta the fork copies (a turn boundary); all when omitted. */
  readonly copiedLines?: number;
  /** Whether the copy repeats the source's own session_meta line. */
  readonly copySourceMeta?: boolean;
}

/** A fork of `source` (its lines): `own` adds the fork's own turns to a builder whose meta names the source. */
export function forkRollout(source: readonly string[], scope: RolloutScope & { readonly forkedFromId: string }, own: (fork: RolloutBuilder) => RolloutBuilder, options: ForkOptions = {}): string[] {
  const lines = own(new RolloutBuilder(scope)).take();
  const meta = lines[0]!;
  const at = (JSON.parse(meta) as { timestamp: string }).timestamp;
  return [meta, ...copiesOf(source, at, options.copiedLines, options.copySourceMeta ?? false), ...later(lines.slice(1), TYPING_MS)];
}

/** The person types the fork's first prompt a while after Codex wrote the copies. */
const TYPING_MS = 30_000;

function later(lines: readonly string[], ms: number): string[] {
  return lines.map((line) => {
    const value = JSON.parse(line) as { timestamp: string };
    return JSON.stringify({ ...value, timestamp: new Date(Date.parse(value.timestamp) + ms).toISOString() });
  });
}

/** A rollout that goes on from `earlier` (its lines) under a new thread id: a resume written into a new file. */
export function resumedRollout(earlier: readonly string[], scope: RolloutScope, own: (resumed: RolloutBuilder) => RolloutBuilder): string[] {
  const lines = own(new RolloutBuilder(scope)).take();
  const meta = lines[0]!;
  const at = (JSON.parse(meta) as { timestamp: string }).timestamp;
  return [meta, ...copiesOf(earlier, at, undefined, true), ...later(lines.slice(1), TYPING_MS)];
}

/** The parent's lines with a spawn_agent call starting `childId` inserted after line `after` (0-based). */
export function withSpawn(parent: readonly string[], after: number, childId: string, prompt: string, callId = 'call_spawn_1'): string[] {
  const at = (JSON.parse(parent[after]!) as { timestamp: string }).timestamp;
  const line = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: at, type, payload });
  const threadId = (JSON.parse(parent[0]!) as { payload: { id: string } }).payload.id;
  const spawn = [
    line('response_item', { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ message: prompt, agent_type: 'explorer' }), call_id: callId }),
    line('event_msg', { type: 'collab_agent_spawn_end', call_id: callId, sender_thread_id: threadId, new_thread_id: childId, prompt, status: 'running' }),
    line('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ agent_id: childId, nickname: 'Scout' }) }),
  ];
  return [...parent.slice(0, after + 1), ...spawn, ...parent.slice(after + 1)];
}

/** A subagent's rollout: `source.subagent.thread_spawn` names its parent; `own` writes its work. */
export function subagentRollout(scope: RolloutScope & { readonly parentThreadId: string }, own: (agent: RolloutBuilder) => RolloutBuilder): string[] {
  return own(new RolloutBuilder(scope)).take();
}

export function rolloutText(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}
