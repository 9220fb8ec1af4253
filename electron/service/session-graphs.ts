/**
 * `sessions.graph` and `sessions.states`: a session's steps plus the nodes Arbor added to it (manual and hook
 * snapshots, fork branches, merge results), and how each node's workspace state is known.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createForkRecords, type ForkRecord } from '../db/fork-records';
import { createSessionSourceFiles } from '../db/session-source-files';
import { createSourceDeletedMarks } from './source-files';
import { createStoredGraphs } from '../db/session-graph-store';
import { linkedSessions } from '../db/session-lineage';
import type { SnapshotRecord } from '../db/session-store';
import type { ArborApi } from '../../shared/contract';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { BRANCH_WORKSPACE, branchHeads, classifyBranchPoints } from '../../shared/graph/branch-points';
import { buildSessionTree } from '../../shared/graph/session-tree';
import type { NodeDetail, NodeSummary, SessionGraph, SessionSummary, WorkspaceStateKnown } from '../../shared/model';
import { decodeSessionGraphChunk, type SessionGraphChunk, type SessionGraphPage } from '../../shared/session-graph-chunks';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../../shared/operations';
import { planArborNodePages, readArborNodeGraph, arborNodePage, type ArborNodePages } from './arbor-node-pages';
import { readCompactSessionGraph } from './compact-session-graph';
import { placeHookSnapshot } from './hook-snapshots';
import { readSessionNodes } from './session-nodes-reader';
import { lineageNodes, withLinks } from './session-lineage';
import type { WorkspaceContext } from './workspace-context';
import { snapshotNode } from './workspace-state';

/** How many sessions' graphs stay cached at most: the open one and the one before it. */
const CACHED_GRAPHS = 2;

/**
 * What the cached graphs may hold together, by estimate (DECODED_NODE_BYTES, COMPACT_TEXT_FACTOR): a graph that
 * alone is bigger is answered and let go (reopened, it is read from its stored chunks again). Counted in graphs
 * only, two 1 GB sessions' graphs stayed (each decoded, with its encoded copy and text), most of a 2.2 GB peak.
 * Room for one 1 GB session's compact graph (~140 MB): let go, asking it again built a second one while the
 * first was still garbage in the heap (peak 435 -> 556 MB), and took 3-7 s again.
 */
export const CACHED_GRAPH_BYTES = 192 * 1024 * 1024;

/**
 * Held bytes per node of a graph decoded into NodeSummary objects, with the encoded copy and its text the
 * transport keeps beside it (~600 B of objects measured at 86k nodes; ~250 B of encoding and text, estimated).
 */
export const DECODED_NODE_BYTES = 900;
/** Held bytes per byte of stored chunk text of a compact graph: its parsed columns (~2×) and its wire text (1×). */
const COMPACT_TEXT_FACTOR = 3;

interface CachedGraph {
  /** Changes whenever anything the graph is built from does (see graphKey). */
  readonly key: string;
  readonly graph: SessionGraph;
  readonly workspaceBranches: number;
  /**
   * The session's transcript nodes with its lineage's, before Arbor's nodes join: what states reconstruct from;
   * null when the graph does not hold them apart (states read them from the stored chunks).
   */
  readonly transcriptNodes: (() => readonly NodeSummary[]) | null;
  /** The estimate of what the entry holds (CACHED_GRAPH_BYTES). */
  readonly bytes: number;
}

export interface SessionGraphsOptions {
  /** Nodes read per page (session-nodes-reader.ts); tests make it small. */
  readonly pageRows?: number;
  /** CACHED_GRAPH_BYTES unless told; tests make it small. */
  readonly cachedGraphBytes?: number;
}

/**
 * A session's graph read a page at a time in the process (the ledger): the session, Arbor's nodes' infos, and the
 * nodes in graph order, one page decoded at a time. `nodes` may be iterated more than once; it throws
 * GraphChangedError when the session changed between two pages (read it again).
 */
export interface GraphInPages {
  readonly session: SessionSummary;
  readonly workspaceNodes: readonly WorkspaceNodeInfo[];
  nodes(signal?: AbortSignal): AsyncIterable<readonly NodeSummary[]>;
}

export class GraphChangedError extends Error {}

export type SessionGraphMethods = Pick<ArborApi, 'sessions.list' | 'sessions.graph' | 'sessions.graphPage' | 'sessions.states'> & {
  /** Not a method of the contract: what the service's own whole-graph readers use instead of `sessions.graph`. */
  readonly graphInPages: (sessionId: string, signal?: AbortSignal) => Promise<GraphInPages>;
};

export function createSessionGraphs(workspace: WorkspaceContext, options: SessionGraphsOptions = {}): SessionGraphMethods {
  const { store } = workspace;
  const forks = createForkRecords(store.handles);
  const stored = createStoredGraphs(store.handles);
  // A mark found after the list was answered: the list asks again (source-files.ts).
  const sourceMarks = createSourceDeletedMarks(createSessionSourceFiles(store.handles), {
    onChanged: (sessionIds) => workspace.events.emit('sessions.changed', { sessionIds: [...sessionIds] }),
  });
  /** The workspace branch points of sessions Arbor added nodes to, while the session and its nodes stay as they were. */
  const extraBranches = new Map<string, { readonly key: string; readonly count: number }>();
  /**
   * Built graphs, newest last. Opening a session again (back to it, a refresh after an event that did not
   * touch it, the transport encoding it once per version) reuses the same object; an import, fork or merge
   * that changes the session drops it (sessions.changed) and the key catches anything else that moved.
   */
  const cache = new Map<string, CachedGraph>();
  const cacheBytes = options.cachedGraphBytes ?? CACHED_GRAPH_BYTES;
  /** `sessions.graph` calls being answered: `sessions.states` starts after them (it would compete for the cores). */
  const opening = new Set<Promise<unknown>>();
  const generation = new Map<string, number>();
  /** The page plans of sessions holding Arbor's nodes (arbor-node-pages.ts), by graph key; one being made is shared. */
  const plans = new Map<string, { readonly key: string; readonly plan: Promise<ArborNodePages | null> }>();
  workspace.events.on('sessions.changed', ({ sessionIds }) => {
    for (const id of sessionIds) {
      cache.delete(id);
      plans.delete(id);
      generation.set(id, (generation.get(id) ?? 0) + 1);
    }
  });

  function graphKey(sessionId: string, session: SessionSummary | null, snapshots: readonly SnapshotRecord[]): string {
    const last = snapshots.at(-1);
    const forkCount = snapshots.length === 0 ? 0 : forks.list().length;
    // A session linked to this one through any chain of links (a fork of a fork, a continuation's
    // continuation) changes what its graph draws, or the titles it says, when it grows or is retitled.
    const links = store.lineageLinks();
    const lineage = linkedSessions(links, [sessionId])
      .filter((id) => id !== sessionId)
      .sort()
      .map((id) => {
        const other = store.getSession(id);
        return `${id}:${other?.nodeCount ?? 0}:${other?.updatedAt ?? ''}:${other?.title ?? ''}`;
      })
      .join(',');
    return `${generation.get(sessionId) ?? 0}|${session?.updatedAt}|${session?.nodeCount}|${snapshots.length}:${last?.nodeId}|${forkCount}|${lineage}`;
  }

  async function graphOf(sessionId: string, signal?: AbortSignal): Promise<CachedGraph> {
    const session = store.getSession(sessionId);
    const snapshots = store.getSessionSnapshots(sessionId);
    // A folder that only has Arbor's own snapshots still has a graph (its session is Arbor's).
    if (session === null && snapshots.length === 0) throw new ArborError('NOT_FOUND', `No session ${sessionId}`, { sessionId });
    const key = graphKey(sessionId, session, snapshots);
    const known = cache.get(sessionId);
    if (known?.key === key) {
      cache.delete(sessionId); // re-inserted below: newest last
      cache.set(sessionId, known);
      return known;
    }
    const links = store.lineageLinks();
    // The stored graph alone: kept in the form it is sent in, never as node objects (compact-session-graph.ts).
    if (session !== null && snapshots.length === 0 && options.pageRows === undefined && isStoredOnly(sessionId)) {
      const compact = await readCompactSessionGraph(stored, withLinks(store, session, links), signal);
      if (compact !== null) {
        if (graphKey(sessionId, store.getSession(sessionId), store.getSessionSnapshots(sessionId)) !== key) return graphOf(sessionId, signal);
        const { graph } = compact;
        return remember(sessionId, { key, graph, workspaceBranches: 0, transcriptNodes: () => graph.nodes, bytes: compact.textBytes * COMPACT_TEXT_FACTOR });
      }
    }
    // Arbor's nodes joined to the stored graph: assembled from the same pages as `sessions.graphPage` sends, in compact form.
    if (session !== null && snapshots.length > 0) {
      const plan = await arborPlan(sessionId, signal);
      const compact = plan === null ? null : await readArborNodeGraph(plan, stored, sessionId, signal);
      if (compact !== null) {
        if (graphKey(sessionId, store.getSession(sessionId), store.getSessionSnapshots(sessionId)) !== key) return graphOf(sessionId, signal);
        return remember(sessionId, { key, graph: compact.graph, workspaceBranches: plan!.workspaceBranches, transcriptNodes: null, bytes: compact.textBytes * COMPACT_TEXT_FACTOR });
      }
    }
    const nodes = lineageNodes(store, sessionId, await transcriptNodes(sessionId, signal), links);
    // An import that landed while the pages were read changed the session under them: read it again.
    if (graphKey(sessionId, store.getSession(sessionId), store.getSessionSnapshots(sessionId)) !== key) return graphOf(sessionId, signal);
    const built = buildGraph(sessionId, session === null ? null : withLinks(store, session, links), snapshots, nodes);
    return remember(sessionId, { key, ...built, transcriptNodes: () => nodes, bytes: built.graph.nodes.length * DECODED_NODE_BYTES });
  }

  /** Caches the entry newest last, the oldest let go past CACHED_GRAPHS or the byte budget; one bigger than the budget is not kept. */
  function remember(sessionId: string, entry: CachedGraph): CachedGraph {
    cache.delete(sessionId);
    if (entry.bytes > cacheBytes) return entry;
    cache.set(sessionId, entry);
    let held = 0;
    for (const cached of cache.values()) held += cached.bytes;
    while (cache.size > CACHED_GRAPHS || held > cacheBytes) {
      const [oldest, cached] = cache.entries().next().value!;
      cache.delete(oldest);
      held -= cached.bytes;
    }
    return entry;
  }

  /**
   * The session's own nodes: from its stored graph (built first when a store from before migration 022 has
   * none), else from the rows. A chunk decodes in a few ms; the event loop is given back between chunks.
   */
  async function transcriptNodes(sessionId: string, signal?: AbortSignal, forStates = false): Promise<NodeSummary[]> {
    const state = options.pageRows === undefined ? await stored.ensure(sessionId, signal) : null;
    const texts = state === null ? null : stored.texts(sessionId);
    if (texts === null) return readSessionNodes(store, sessionId, signal, options.pageRows);
    const nodes: NodeSummary[] = [];
    for (let k = 0; k < texts.texts.length; k++) {
      if (k > 0) {
        await nextTurn();
        throwIfAborted(signal);
      }
      for (const node of decodeSessionGraphChunk(sessionId, JSON.parse(texts.texts[k]!) as SessionGraphChunk)) nodes.push(forStates ? forReconstruction(node) : node);
    }
    return nodes;
  }

  /** Whether the graph is the stored one alone: no node of Arbor's and no linked session's joins it. */
  function isStoredOnly(sessionId: string): boolean {
    return store.getSessionSnapshots(sessionId).length === 0 && !isLinked(sessionId);
  }

  function isLinked(sessionId: string): boolean {
    return store.lineageLinks().some((link) => link.laterId === sessionId || link.earlierId === sessionId);
  }

  /**
   * The page plan of a session holding Arbor's nodes and no linked session's; null when it has none of Arbor's,
   * is linked, or cannot be planned (its graph is then built whole). One plan per version, made once.
   */
  function arborPlan(sessionId: string, signal?: AbortSignal): Promise<ArborNodePages | null> {
    const session = store.getSession(sessionId);
    const snapshots = store.getSessionSnapshots(sessionId);
    if (session === null || snapshots.length === 0 || options.pageRows !== undefined) return Promise.resolve(null);
    if (isLinked(sessionId)) return Promise.resolve(null);
    const key = graphKey(sessionId, session, snapshots);
    const known = plans.get(sessionId);
    if (known?.key === key) return known.plan;
    const plan = planArborNodePages({ store, stored, session, snapshots, forks: forks.list(), workspaceKind: workspaceNodeKind, key }, signal);
    plans.set(sessionId, { key, plan });
    // A plan cancelled or failed is not kept: the next ask makes it again.
    plan.catch(() => {
      if (plans.get(sessionId)?.plan === plan) plans.delete(sessionId);
    });
    return plan;
  }

  async function graphPage(sessionId: string, page: number, signal?: AbortSignal): Promise<SessionGraphPage> {
    const session = page === 0 ? store.getSession(sessionId) : null;
    const whole = async (): Promise<SessionGraphPage> => ({ version: 'whole', page: 0, pages: 1, chunk: '', graph: (await graphOf(sessionId, signal)).graph });
    if (!isStoredOnly(sessionId)) {
      const plan = await arborPlan(sessionId, signal);
      if (plan !== null) return arborNodePage(plan, stored, sessionId, page);
      if (page === 0) return whole();
      // Asked ahead of page 0 (the renderer asks every page at once) for a graph that page 0 sends whole: its
      // stored chunks are not that graph, and sending them would be megabytes read for nothing.
      return { version: 'whole', page, pages: 1, chunk: '' };
    }
    if (page === 0 && session === null) return whole();
    const state = page === 0 ? await stored.ensure(sessionId, signal) : stored.state(sessionId);
    if (state === null) return whole();
    const segment = stored.segment(sessionId, page);
    // Past the end of what is stored now: the session changed under the pages; the version says so.
    if (segment === null) return { version: stored.state(sessionId).version, page, pages: state.segments, chunk: '' };
    return { version: segment.version, page, pages: segment.segments, chunk: segment.text, ...(session === null ? {} : { session }) };
  }

  /** The branch points Arbor's nodes add to the session: from its page plan when it has one, else its whole graph. */
  async function workspaceBranchesOf(sessionId: string): Promise<number> {
    const plan = await arborPlan(sessionId);
    return plan !== null ? plan.workspaceBranches : (await graphOf(sessionId)).workspaceBranches;
  }

  function buildGraph(
    sessionId: string,
    session: SessionSummary | null,
    snapshots: readonly SnapshotRecord[],
    nodes: NodeSummary[],
  ): { graph: SessionGraph; workspaceBranches: number } {
    if (snapshots.length === 0) return { graph: { session: session!, nodes }, workspaceBranches: 0 };
    const inGraph = new Set(nodes.map((node) => node.id));
    const added = snapshots.map((record) => snapshotNode(placeHookSnapshot(store, record, (id) => inGraph.has(id))));
    const all = [...continueForks(nodes, forks.list(), store, inGraph), ...added];
    const workspaceNodes = snapshots.map(workspaceNodeInfo);
    const summary = session ?? arborSession(sessionId, snapshots, added);
    const workspaceBranches = workspaceBranchPoints(all, workspaceNodes);
    return { graph: { session: { ...summary, branchCount: summary.branchCount + workspaceBranches }, nodes: all, workspaceNodes }, workspaceBranches };
  }

  async function graphInPages(sessionId: string, signal?: AbortSignal): Promise<GraphInPages> {
    const first = await graphPage(sessionId, 0, signal);
    if (first.graph !== undefined || first.session === undefined) {
      const { graph } = await graphOf(sessionId, signal);
      return { session: graph.session, workspaceNodes: graph.workspaceNodes ?? [], nodes: async function* () { yield graph.nodes; } };
    }
    const { session, version, pages } = first;
    return {
      session,
      workspaceNodes: first.workspaceNodes ?? [],
      async *nodes(readSignal) {
        for (let k = 0; k < pages; k++) {
          if (k > 0) {
            await nextTurn();
            throwIfAborted(readSignal);
          }
          const page = k === 0 ? first : await graphPage(sessionId, k, readSignal);
          if (page.version !== version || page.chunk === '') throw new GraphChangedError(`The graph of ${sessionId} changed while it was read`);
          yield decodeSessionGraphChunk(sessionId, JSON.parse(page.chunk) as SessionGraphChunk);
        }
      },
    };
  }

  return {
    graphInPages,
    // The list counts branch points as the graph does: the store's (rewinds, edited prompts) plus Arbor's forks
    // and merges, worked out once per version of a session that has any.
    'sessions.list': async (request) => {
      const page = store.listSessions(request);
      const sourceDeleted = await sourceMarks.deletedOf(page.sessions.map((session) => session.id));
      // One query for all sessions: most have no snapshots, and those that do may have thousands (hooks).
      const versions = store.snapshotVersions();
      const links = store.lineageLinks();
      let forkCount: number | undefined;
      const sessions: SessionSummary[] = [];
      for (const listed of page.sessions) {
        const linked = links.length === 0 ? listed : withLinks(store, listed, links);
        const session = sourceDeleted.has(linked.id) ? { ...linked, sourceDeleted: true } : linked;
        const version = versions.get(session.id);
        if (version === undefined) {
          sessions.push(session);
          continue;
        }
        forkCount ??= forks.list().length;
        const key = `${session.updatedAt}|${session.nodeCount}|${version}|${forkCount}`;
        let known = extraBranches.get(session.id);
        if (known?.key !== key) extraBranches.set(session.id, (known = { key, count: await workspaceBranchesOf(session.id) }));
        sessions.push(known.count === 0 ? session : { ...session, branchCount: session.branchCount + known.count });
      }
      return { ...page, sessions };
    },
    'sessions.graph': async ({ sessionId }, context) => {
      const open = graphOf(sessionId, context?.signal);
      opening.add(open);
      try {
        return (await open).graph;
      } finally {
        opening.delete(open);
      }
    },
    'sessions.graphPage': async ({ sessionId, page }, context) => {
      const open = graphPage(sessionId, page, context?.signal);
      opening.add(open);
      try {
        return await open;
      } finally {
        opening.delete(open);
      }
    },
    // The renderer asks for states as soon as it asks for the graph; the graph is what the user waits for, so
    // states wait for every graph being read and then reconstruct in the background (workspace-state.ts).
    'sessions.states': async ({ sessionId }, context) => {
      while (opening.size > 0) await Promise.allSettled([...opening]);
      throwIfAborted(context?.signal);
      const known: Record<string, WorkspaceStateKnown> = {};
      const snapshots = store.getSessionSnapshots(sessionId);
      for (const record of snapshots) known[record.nodeId] = 'exact';
      // The nodes the graph just read, when nothing changed since (its key still holds), are not read again.
      const opened = cache.get(sessionId);
      let nodes = opened?.key === graphKey(sessionId, store.getSession(sessionId), snapshots) ? opened.transcriptNodes?.() : undefined;
      // Opened in pages, the graph was never decoded here: its stored chunks are still cheaper than the rows.
      // A session with Arbor's nodes and no linked one: its transcript nodes are the stored graph's too.
      if (nodes === undefined && !isLinked(sessionId) && stored.state(sessionId).segments > 0) nodes = await transcriptNodes(sessionId, context?.signal, true);
      // One reconstruction answers for every node (cached for the next calls); no node's file map is built.
      (await workspace.states.knownOf(sessionId, context?.signal, { pace: 'background', nodes })).forEach((state, nodeId) => {
        known[nodeId] = state;
      });
      return { known };
    },
  };
}

/**
 * A node as the reconstruction reads it, decoded for it alone: without the label, model and transcript parent it
 * never reads (a third of a decoded node; 370k nodes of a 1 GB session held ~220 MB through the states).
 */
function forReconstruction(node: NodeSummary): NodeSummary {
  return { ...node, label: '', parentSourceId: null, model: null };
}

/**
 * Branch points that exist only because of Arbor's nodes (a fork or merge beside the transcript's next step),
 * counted the way the graph draws them (shared/graph), so the header's count matches the badges. The store's
 * count covers the transcript's own rewinds and edited prompts; both the list and the graph add these.
 */
function workspaceBranchPoints(nodes: readonly NodeSummary[], workspaceNodes: readonly WorkspaceNodeInfo[]): number {
  const tree = buildSessionTree(nodes);
  const points = classifyBranchPoints(tree, branchHeads(tree, workspaceNodes));
  let count = 0;
  for (let i = 0; i < points.branch.length; i++) if (points.branch[i] === BRANCH_WORKSPACE && points.width[i]! >= 2) count++;
  return count;
}

/**
 * A forked run that went on (`claude --resume` in the fork's folder) is imported into the fork point's
 * session: its copied lines are the nodes already there, so its first new step's parent is the fork point's
 * turn. Drawn there it would look like a sibling of the fork; it belongs to the fork's branch, so the graph
 * hangs it below the fork node (its `parentSourceId` still says what the transcript wrote).
 */
function continueForks(nodes: NodeSummary[], records: readonly ForkRecord[], store: WorkspaceContext['store'], inGraph: ReadonlySet<string>): NodeSummary[] {
  const branchOf = new Map<string, string>();
  for (const fork of records) {
    if (fork.transcript === null || !inGraph.has(fork.nodeId)) continue;
    for (const id of store.getNodeIdsOfFile(fork.transcript)) branchOf.set(id, fork.branchNodeId);
  }
  if (branchOf.size === 0) return nodes;
  return nodes.map((node) => {
    const branch = branchOf.get(node.id);
    // Only the first steps of the continuation move: the rest keep their parents inside it.
    if (branch === undefined || node.parentId === null || branchOf.has(node.parentId)) return node;
    return { ...node, parentId: branch };
  });
}

export function workspaceNodeKind(record: SnapshotRecord): WorkspaceNodeKind {
  switch (record.kind ?? 'manual') {
    case 'manual':
      return 'snapshot';
    case 'hook':
      return 'hook-snapshot';
    case 'fork':
      return 'fork';
    case 'merge':
      return 'merge';
  }
}

function workspaceNodeInfo(record: SnapshotRecord): WorkspaceNodeInfo {
  return { nodeId: record.nodeId, kind: workspaceNodeKind(record), dir: record.dir };
}

/** The summary of a session made only of Arbor's snapshots of a folder no imported session ran in. */
function arborSession(sessionId: string, snapshots: readonly SnapshotRecord[], nodes: readonly NodeSummary[]) {
  const first = snapshots[0]!;
  return {
    id: sessionId,
    source: 'claude-code' as const,
    title: `Snapshots of ${first.dir}`,
    project: first.dir,
    startedAt: first.createdAt,
    updatedAt: snapshots.at(-1)!.createdAt,
    nodeCount: nodes.length,
    fileCount: 0,
    branchCount: 0,
  };
}

/** What the inspector shows for a node Arbor added: its label as text, no transcript line behind it. */
export function snapshotNodeDetail(record: SnapshotRecord): NodeDetail {
  const node = snapshotNode(record);
  // Markdown: one paragraph per fact, paths as code.
  const lines = [node.label, `Folder: \`${record.dir}\``, `Snapshot tree: \`${record.treeOid}\``];
  if (record.toolUseId) lines.push(`After tool call \`${record.toolUseId}\``);
  return {
    node,
    blocks: [{ type: 'text', text: lines.join('\n\n') }],
    toolCalls: [],
    usage: null,
    cwd: record.dir,
    gitBranch: null,
    version: null,
    file: '',
    line: 0,
    raw: JSON.stringify(record),
    rawTruncatedAt: null,
    records: [],
  };
}
