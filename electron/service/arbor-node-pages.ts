/**
 * A session that holds nodes Arbor added (snapshots, hook snapshots, fork branches, merge results) sent in
 * `sessions.graphPage` pages like a stored-only one: its stored chunks as they are, then one last page of
 * Arbor's nodes. Page 0 says the session (its branch count with the branch points Arbor's nodes make) and the
 * workspace nodes; a chunk holding the first steps of a forked run that went on is sent re-encoded with those
 * steps under the fork's node (session-graphs.ts continueForks). Built whole, a 1 GB session's graph with a
 * fork in it was every node decoded in the serving process (~220 MB of objects beside its compact form and
 * text); here one chunk is decoded at a time, once per version of the session, to find what the last page
 * and page 0 need. The pages decode to the graph `sessions.graph` answers (session-graph-stored.test.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { chunkText, type StoredGraphs } from '../db/session-graph-store';
import type { ForkRecord } from '../db/fork-records';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { throwIfAborted } from '../../shared/errors';
import { isBranchHeadKind, workspaceBranchWidth, type ChildFacts } from '../../shared/graph/branch-points';
import type { NodeId, NodeSummary, SessionId, SessionSummary } from '../../shared/model';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../../shared/operations';
import { createSessionGraphAssembler, decodeSessionGraphChunk, encodeSessionGraphChunk, type SessionGraphChunk, type SessionGraphPage } from '../../shared/session-graph-chunks';
import { lazyNodesGraph, type CompactSessionGraph } from './compact-session-graph';
import { placeHookSnapshot } from './hook-snapshots';
import { snapshotNode } from './workspace-state';

/** What the pages of one version of the session are made of (small: Arbor's nodes, not the session's). */
export interface ArborNodePages {
  /** The stored graph's version and the key of Arbor's nodes: every page says it. */
  readonly version: string;
  readonly storedVersion: string;
  /** The stored segments, then the page of Arbor's nodes. */
  readonly pages: number;
  readonly session: SessionSummary;
  readonly workspaceNodes: readonly WorkspaceNodeInfo[];
  /** Branch points that exist only because of Arbor's nodes (session-graphs.ts workspaceBranchPoints). */
  readonly workspaceBranches: number;
  /** The first steps of forked runs that went on, and the fork node each hangs under instead. */
  readonly moved: ReadonlyMap<NodeId, NodeId>;
  /** Stored segments holding a moved step: sent re-encoded. */
  readonly rewritten: ReadonlySet<number>;
  readonly lastChunk: string;
}

export interface ArborNodeInputs {
  readonly store: SessionStore;
  readonly stored: StoredGraphs;
  readonly session: SessionSummary;
  readonly snapshots: readonly SnapshotRecord[];
  readonly forks: readonly ForkRecord[];
  readonly workspaceKind: (record: SnapshotRecord) => WorkspaceNodeKind;
  /** Changes whenever anything the graph is built from does (session-graphs.ts graphKey). */
  readonly key: string;
}

/** A child of a node that may be a workspace branch point, found as the chunks pass. */
interface Child extends ChildFacts {
  readonly parent: NodeId;
}

/**
 * The pages' plan, from one pass over the stored chunks; null when the stored graph is not whole (read the
 * rows, as before) or Arbor's nodes do not fit a chunk.
 */
export async function planArborNodePages(inputs: ArborNodeInputs, signal?: AbortSignal): Promise<ArborNodePages | null> {
  const { store, stored, session, snapshots } = inputs;
  const sessionId = session.id;
  const state = await stored.ensure(sessionId, signal);
  if (state === null) return null;
  // The transcript's nodes are the session's stored ones (no linked session joins a graph planned here).
  const inTranscript = (id: string): boolean => store.getNode(id)?.summary.sessionId === sessionId;
  const added = snapshots.map((record) => snapshotNode(placeHookSnapshot(store, record, inTranscript)));
  const workspaceNodes = snapshots.map((record): WorkspaceNodeInfo => ({ nodeId: record.nodeId, kind: inputs.workspaceKind(record), dir: record.dir }));
  const addedIds = new Set(added.map((node) => node.id));
  const inGraph = (id: string): boolean => addedIds.has(id) || inTranscript(id);
  const moved = new Map<NodeId, NodeId>();
  for (const fork of inputs.forks) {
    if (fork.transcript === null || !inTranscript(fork.nodeId)) continue;
    for (const id of store.getNodeIdsOfFile(fork.transcript)) moved.set(id, fork.branchNodeId);
  }
  const heads = new Set(workspaceNodes.filter((info) => isBranchHeadKind(info.kind)).map((info) => info.nodeId));
  // Only a node with a branch head under it can be a workspace branch point.
  const points = new Set<NodeId>();
  for (const node of added) if (heads.has(node.id) && node.parentId !== null && node.parentId !== node.id && inGraph(node.parentId)) points.add(node.parentId);
  const children: Child[] = [];
  /** Children hung by an edge because their parent is not in the graph: checked once the pass is over. */
  const byEdge: { child: Child; absent: readonly NodeId[] }[] = [];
  const consider = (node: NodeSummary, head: boolean): void => {
    const facts = { kind: node.kind, timestamp: node.timestamp, head };
    if (node.parentId !== null && node.parentId !== node.id && points.has(node.parentId)) {
      children.push({ ...facts, parent: node.parentId });
      return;
    }
    // session-tree.ts: a node whose parent is not in the graph hangs under its first edge (not a merge) that is.
    const absent: NodeId[] = node.parentId === null || node.parentId === node.id ? [] : [node.parentId];
    for (const edge of node.extraEdges) {
      if (edge.kind === 'merge' || edge.nodeId === node.id) continue;
      if (points.has(edge.nodeId)) {
        byEdge.push({ child: { ...facts, parent: edge.nodeId }, absent });
        return;
      }
      absent.push(edge.nodeId);
    }
  };
  const rewritten = new Set<number>();
  for (let k = 0; k < state.segments; k++) {
    if (k > 0) {
      await nextTurn();
      throwIfAborted(signal);
    }
    const segment = stored.segment(sessionId, k);
    // Another version: an import wrote the session's segments between two reads; the client reads again.
    if (segment === null || segment.version !== state.version) return null;
    for (const node of decodeSessionGraphChunk(sessionId, JSON.parse(segment.text) as SessionGraphChunk)) {
      const branch = movedParent(node, moved);
      if (branch !== null) rewritten.add(k);
      consider(branch === null ? node : { ...node, parentId: branch }, false);
    }
  }
  for (const node of added) consider(node, heads.has(node.id));
  for (const { child, absent } of byEdge) if (!absent.some(inGraph)) children.push(child);
  const lastChunk = encodeSessionGraphChunk(sessionId, added);
  if (lastChunk === null) return null;
  const workspaceBranches = countWorkspaceBranches(children);
  return {
    version: `${state.version}|${inputs.key}`,
    storedVersion: state.version,
    pages: state.segments + 1,
    session: { ...session, branchCount: session.branchCount + workspaceBranches },
    workspaceNodes,
    workspaceBranches,
    moved,
    rewritten,
    lastChunk: chunkText(lastChunk),
  };
}

/** The fork node a moved step hangs under instead (continueForks: only a run's first steps move), else null. */
function movedParent(node: NodeSummary, moved: ReadonlyMap<NodeId, NodeId>): NodeId | null {
  const branch = moved.get(node.id);
  return branch === undefined || node.parentId === null || moved.has(node.parentId) ? null : branch;
}

function countWorkspaceBranches(children: readonly Child[]): number {
  const byParent = new Map<NodeId, Child[]>();
  for (const child of children) {
    const list = byParent.get(child.parent) ?? [];
    list.push(child);
    byParent.set(child.parent, list);
  }
  let count = 0;
  for (const list of byParent.values()) if (workspaceBranchWidth(list) >= 2) count++;
  return count;
}

/** One page of the plan: a stored chunk (re-encoded when a moved step is in it), or Arbor's nodes last. */
export function arborNodePage(plan: ArborNodePages, stored: StoredGraphs, sessionId: SessionId, page: number): SessionGraphPage {
  const head = page === 0 ? { session: plan.session, workspaceNodes: plan.workspaceNodes } : {};
  if (page === plan.pages - 1) return { version: plan.version, page, pages: plan.pages, chunk: plan.lastChunk, ...head };
  const segment = stored.segment(sessionId, page);
  // The session changed since the plan: the version says so and the client reads it again.
  if (segment === null || segment.version !== plan.storedVersion) return { version: segment?.version ?? stored.state(sessionId).version, page, pages: plan.pages, chunk: '' };
  return { version: plan.version, page, pages: plan.pages, chunk: plan.rewritten.has(page) ? movedChunk(sessionId, segment.text, plan.moved) : segment.text, ...head };
}

/** A stored chunk with its moved steps under their fork nodes. */
function movedChunk(sessionId: SessionId, text: string, moved: ReadonlyMap<NodeId, NodeId>): string {
  const nodes = decodeSessionGraphChunk(sessionId, JSON.parse(text) as SessionGraphChunk).map((node) => {
    const branch = movedParent(node, moved);
    return branch === null ? node : { ...node, parentId: branch };
  });
  // The nodes came out of a chunk of this session: they fit one again.
  return chunkText(encodeSessionGraphChunk(sessionId, nodes)!);
}

/**
 * The whole graph of the plan in compact form (compact-session-graph.ts), assembled from its pages one at a time:
 * what `sessions.graph` answers for the session. Null when the session changed under the pages.
 */
export async function readArborNodeGraph(plan: ArborNodePages, stored: StoredGraphs, sessionId: SessionId, signal?: AbortSignal): Promise<CompactSessionGraph | null> {
  const assembler = createSessionGraphAssembler(plan.session, plan.workspaceNodes);
  let textBytes = 0;
  for (let k = 0; k < plan.pages; k++) {
    if (k > 0) {
      await nextTurn();
      throwIfAborted(signal);
    }
    const page = arborNodePage(plan, stored, sessionId, k);
    if (page.version !== plan.version || page.chunk === '') return null;
    textBytes += page.chunk.length;
    assembler.add(JSON.parse(page.chunk) as SessionGraphChunk);
  }
  return { graph: lazyNodesGraph(assembler.finish()), textBytes };
}
