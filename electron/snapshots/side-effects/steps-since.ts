/**
 * The side effects that happened after a node: the tool calls of the steps after it on the way to the
 * session's newest step (its own calls too — their outcome comes after its state), and of the subagent runs
 * those steps spawned. A rewind to the node cannot take these back, so the preview lists them.
 */
import { throwIfAborted } from '../../../shared/errors';
import type { NodeId, NodeSummary } from '../../../shared/model';
import type { SideEffect } from '../../../shared/operations';
import type { ReadStepCalls, StepCall } from '../../importers/transcript';
import { classifyStepCall, summarizeCall } from './classify-call';

/** A node's transcript line, or null when it is not available (its calls are then classified by name alone). */
export type ReadLine = (nodeId: NodeId) => string | null;

export interface StepsSinceOptions {
  /** The session's nodes in transcript order. */
  readonly nodes: readonly NodeSummary[];
  /**
   * The node the workspace goes back to, when it is a step of the transcript; else (a snapshot Arbor took)
   * the step it hangs below, whose calls already ran.
   */
  readonly node: { readonly step: NodeId } | { readonly after: NodeId | null };
  readonly readLine: ReadLine;
  /** The session's format's reader of the calls on a line (its importer's); Claude Code's when absent. */
  readonly readCalls?: ReadStepCalls;
  /** The session's project folder, to tell workspace paths in shell commands from others. */
  readonly cwd: string | null;
  readonly signal?: AbortSignal;
}

/** The node its file state follows: the parent, else the compaction's logical parent. */
function stateParent(node: NodeSummary): NodeId | null {
  return node.parentId ?? node.extraEdges.find((edge) => edge.kind === 'logical')?.nodeId ?? null;
}

function ancestors(byId: ReadonlyMap<NodeId, NodeSummary>, from: NodeId | null): Set<NodeId> {
  const seen = new Set<NodeId>();
  for (let at = from; at !== null && !seen.has(at); ) {
    seen.add(at);
    const node = byId.get(at);
    at = node === undefined ? null : stateParent(node);
  }
  return seen;
}

export function sideEffectsSince(options: StepsSinceOptions): SideEffect[] {
  const { nodes, signal } = options;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const newest = nodes.findLast((node) => !node.sidechain);
  if (newest === undefined) return [];
  let target: NodeSummary | null = null;
  let before: Set<NodeId>;
  if ('step' in options.node) {
    target = byId.get(options.node.step) ?? null;
    if (target === null) return [];
    before = ancestors(byId, stateParent(target));
  } else {
    before = ancestors(byId, options.node.after);
  }

  // The newest step's path back to where it meets the node's ancestors.
  const since = new Set<NodeId>();
  for (let at: NodeId | null = newest.id; at !== null && !before.has(at) && !since.has(at); ) {
    since.add(at);
    const node = byId.get(at);
    at = node === undefined ? null : stateParent(node);
  }
  if (target !== null) since.add(target.id);

  // Subagent runs spawned by those steps (nested runs too): a run's root links to the spawning call's node.
  const spawnerOfRoot = new Map<NodeId, NodeId | null>();
  const rootOf = (node: NodeSummary): NodeSummary => {
    let at = node;
    const seen = new Set<NodeId>();
    while (at.parentId !== null && !seen.has(at.id)) {
      seen.add(at.id);
      const parent = byId.get(at.parentId);
      if (parent === undefined || !parent.sidechain) break;
      at = parent;
    }
    return at;
  };
  const included = (node: NodeSummary, depth: number): boolean => {
    if (since.has(node.id)) return true;
    if (!node.sidechain || depth > 32) return false;
    const root = rootOf(node);
    if (!spawnerOfRoot.has(root.id)) {
      const spawner = root.extraEdges.find((edge) => edge.kind === 'subagent')?.nodeId ?? byId.get(root.parentId ?? '')?.id ?? null;
      spawnerOfRoot.set(root.id, spawner);
    }
    const spawner = spawnerOfRoot.get(root.id);
    const spawnerNode = spawner === null || spawner === undefined ? undefined : byId.get(spawner);
    return spawnerNode !== undefined && spawnerNode.id !== node.id && included(spawnerNode, depth + 1);
  };

  const effects: SideEffect[] = [];
  let visited = 0;
  for (const node of nodes) {
    if (node.toolCalls.length === 0 || !included(node, 0)) continue;
    if (++visited % 256 === 0) throwIfAborted(signal);
    const calls = (options.readCalls ?? claudeStepCalls)(options.readLine(node.id));
    for (const ref of node.toolCalls) {
      const call = calls.get(ref.id) ?? { name: ref.name, input: undefined, command: null };
      for (const kind of classifyStepCall(call, { cwd: options.cwd })) {
        effects.push({ nodeId: node.id, toolUseId: ref.id, tool: ref.name, kind, summary: summarizeCall(ref.name, call.input, call.command) });
      }
    }
  }
  return effects;
}

/** tool_use id → call, from the node's transcript line (Claude Code `message.content`); Bash runs its `command`. */
export function claudeStepCalls(line: string | null): Map<string, StepCall> {
  const inputs = new Map<string, StepCall>();
  if (line === null) return inputs;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return inputs; // cut at the store's raw limit: calls are classified by name alone
  }
  const message = typeof entry === 'object' && entry !== null ? (entry as { message?: unknown }).message : undefined;
  const content = typeof message === 'object' && message !== null ? (message as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) return inputs;
  for (const block of content) {
    if (typeof block !== 'object' || block === null) continue;
    const { type, id, input } = block as { type?: unknown; id?: unknown; input?: unknown };
    if (type !== 'tool_use' || typeof id !== 'string') continue;
    const name = typeof (block as { name?: unknown }).name === 'string' ? (block as { name: string }).name : '';
    const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
    inputs.set(id, { name, input, command: name === 'Bash' && typeof command === 'string' ? command : null });
  }
  return inputs;
}
