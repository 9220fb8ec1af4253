/**
 * The side-effect ledger, built as the steps stream past in order (a session's or a branch's; the caller pages
 * through the store): every call the classifier says reached outside the workspace, or that requested an effect
 * a repeat would do twice (replay-rules.ts), with its outcome. A request is flagged as a possible double effect
 * when the same effect (same key) was requested before and
 *   - that earlier request, on this branch, has no recorded outcome (it may have run), or
 *   - it is on this branch, ran, and is in another transcript file (the session was resumed in between), or
 *   - it is on another branch (a rewind, an edited prompt, a retried answer) and did not fail.
 * A repeat after a recorded success on the same branch, in the same file, is the agent doing it again on purpose
 * (a push after each commit), and a repeat after a failure is a retry of something that did not happen: neither
 * is flagged.
 */
import type { NodeId, NodeSummary, ToolOutcome } from '../../../shared/model';
import type { LedgerEntry, LedgerReplay, ReplayReason } from '../../../shared/side-effect-ledger';
import { shellCommandText } from '../../importers/codex/tool-labels';
import { classifyStepCall, summarizeCall } from './classify-call';
import { shellReplayKeys, toolReplayKeys, type ReplayKey } from './replay-rules';

export interface LedgerCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The command line a shell call ran; null for other tools. */
  readonly command: string | null;
  readonly outcome: ToolOutcome;
}

export interface LedgerStep {
  readonly nodeId: NodeId;
  readonly timestamp: string | null;
  /** The transcript file the step was read from (null when not known): a change of file between two requests is a resume. */
  readonly file: string | null;
  readonly calls: readonly LedgerCall[];
}

export interface LedgerOptions {
  /** The session's project folder, to tell workspace paths in shell commands from others. */
  readonly cwd: string | null;
  /** The step a node follows (its parent, else the compaction's logical parent or the spawning call): tells branches apart. */
  readonly parentOf: (nodeId: NodeId) => NodeId | null;
  /** The node whose branch this is: entries of steps after it are marked `afterThrough`. */
  readonly through?: NodeId | null;
  /** Only steps after this one are listed (earlier ones still count for replays): a merge's base. */
  readonly since?: NodeId | null;
}

interface Request {
  readonly nodeId: NodeId;
  readonly toolUseId: string;
  readonly summary: string;
  readonly outcome: ToolOutcome;
  readonly file: string | null;
}

export interface LedgerBuilder {
  add(step: LedgerStep): void;
  entries(): LedgerEntry[];
}

export function ledgerBuilder(options: LedgerOptions): LedgerBuilder {
  const entries: LedgerEntry[] = [];
  const requests = new Map<string, Request[]>();
  let passedThrough = false;
  let listing = options.since === undefined || options.since === null;

  /** The step and everything it follows, up to the root (bounded: a broken chain cannot loop). */
  function pathTo(nodeId: NodeId): Set<NodeId> {
    const seen = new Set<NodeId>();
    for (let at: NodeId | null = nodeId; at !== null && !seen.has(at); at = options.parentOf(at)) seen.add(at);
    return seen;
  }

  function replayOf(step: LedgerStep, keys: readonly ReplayKey[]): LedgerReplay | null {
    let path: Set<NodeId> | null = null;
    for (const { key, effect } of keys) {
      const earlier = requests.get(key);
      if (earlier === undefined) continue;
      path ??= pathTo(step.nodeId);
      const onPath = earlier.findLast((request) => path!.has(request.nodeId));
      let reason: ReplayReason | null = null;
      let found: Request | undefined;
      if (onPath !== undefined) {
        found = onPath;
        if (onPath.outcome === 'missing') reason = 'missing-outcome';
        else if (onPath.outcome === 'ok' && onPath.file !== null && step.file !== null && onPath.file !== step.file) reason = 'resume';
      } else {
        found = earlier.findLast((request) => request.outcome !== 'error');
        if (found !== undefined) reason = 'retry';
      }
      if (reason !== null && found !== undefined) return { nodeId: found.nodeId, toolUseId: found.toolUseId, summary: found.summary, outcome: found.outcome, reason, effect };
    }
    return null;
  }

  return {
    add(step) {
      const after = passedThrough;
      for (const call of step.calls) {
        const kinds = classifyStepCall({ name: call.name, input: call.input, command: call.command }, { cwd: options.cwd });
        const keys = call.command !== null ? shellReplayKeys(call.command) : toolReplayKeys(call.name, call.input);
        if (kinds.length === 0 && keys.length === 0) continue;
        const summary = summarizeCall(call.name, call.input, call.command);
        const replay = keys.length === 0 ? null : replayOf(step, keys);
        for (const { key } of keys) {
          const list = requests.get(key) ?? [];
          list.push({ nodeId: step.nodeId, toolUseId: call.id, summary, outcome: call.outcome, file: step.file });
          requests.set(key, list);
        }
        if (!listing) continue;
        entries.push({
          nodeId: step.nodeId,
          toolUseId: call.id,
          tool: call.name,
          timestamp: step.timestamp,
          kinds,
          effects: [...new Set(keys.map((key) => key.effect))],
          summary,
          outcome: call.outcome,
          replayOf: replay,
          afterThrough: after,
        });
      }
      if (options.through !== undefined && options.through !== null && step.nodeId === options.through) passedThrough = true;
      if (!listing && step.nodeId === options.since) listing = true;
    },
    entries: () => entries,
  };
}

/** parentOf for a session's nodes: the parent, else the compaction's logical parent, else the call that spawned a subagent run. */
export function stepParents(nodes: Iterable<NodeSummary>): (nodeId: NodeId) => NodeId | null {
  const parents = new Map<NodeId, NodeId | null>();
  for (const node of nodes) {
    parents.set(node.id, node.parentId ?? node.extraEdges.find((edge) => edge.kind === 'logical' || edge.kind === 'subagent')?.nodeId ?? null);
  }
  return (nodeId) => parents.get(nodeId) ?? null;
}

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);

/**
 * The command line a call ran, from its input alone (an export's calls have no stored line): Claude Code's Bash
 * `command`, Codex's shell tools' `cmd` or argv (`["bash", "-lc", script]` is the script).
 */
export function commandOfCall(name: string, input: unknown): string | null {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (name === 'Bash') return typeof fields.command === 'string' ? fields.command : null;
  if (!SHELL_TOOLS.has(name)) return null;
  return shellCommandText(fields.cmd ?? fields.command);
}
