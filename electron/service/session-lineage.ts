/**
 * One line of work across session ids (Claude Code 2026, issue 13), for the graph and for reconstruction:
 * - a fork's graph starts with its parent's path root → fork point (the shared prefix: the parent's own nodes,
 *   stored once), and its first own step hangs from the fork point ('fork-of');
 * - a session's graph shows each fork made from it as a branch into the other session: the fork's first own
 *   step, under the fork point;
 * - background continuations (`continued-in`) and sessions that follow a cleared context (a plan accepted)
 *   are drawn as one line: the chain's sessions in order, each one's first step under the last step of the
 *   session before it ('continues', 'follows': the same folder went on, only the conversation was new).
 * So a fork's state at its first own step is the parent's at the fork point, a continuation's or a
 * follower's the end of the session before it.
 */
import type { LineageLink, SessionStore } from '../db/session-store';
import { FIRST_PAGE } from '../db/session-queries';
import type { ExtraEdge, NodeSummary, SessionId, SessionLink, SessionSummary } from '../../shared/model';

type LineageStore = Pick<SessionStore, 'lineageLinks' | 'nodePath' | 'getSessionNodes' | 'getSessionNodesPage' | 'getSession'>;

/** The session's nodes with what its lineage adds (see above); `own` itself when it has none. */
export function lineageNodes(store: LineageStore, sessionId: SessionId, own: NodeSummary[], links: readonly LineageLink[] = store.lineageLinks()): NodeSummary[] {
  if (!links.some((link) => link.laterId === sessionId || link.earlierId === sessionId)) return own;
  const chain = continuationChain(links, sessionId);
  const nodes: NodeSummary[] = [];
  const ids = new Set<string>();
  let previousLast: string | null = null;
  let previousId: SessionId | null = null;
  for (const id of chain) {
    const part = id === sessionId ? own : store.getSessionNodes(id);
    part.forEach((node, index) => {
      if (ids.has(node.id)) return;
      ids.add(node.id);
      const hangs = index === 0 && previousLast !== null && (node.parentId === null || !ids.has(node.parentId));
      nodes.push(hangs ? withEdge(node, { kind: chainKind(links, previousId!, id), nodeId: previousLast! }) : node);
    });
    previousLast = lastMainStep(part) ?? previousLast;
    previousId = id;
  }
  // A fork's shared prefix (the parent's path to the fork point) comes first, as in the transcript.
  const prefix: NodeSummary[] = [];
  for (const link of links) {
    if (link.kind !== 'fork' || link.laterId !== sessionId || link.nodeId === null) continue;
    for (const node of store.nodePath(link.nodeId)) {
      if (ids.has(node.id)) continue;
      ids.add(node.id);
      prefix.push(node);
    }
  }
  const all = prefix.length > 0 ? [...prefix, ...nodes] : nodes;
  const forkPoints = new Map<string, string>();
  for (const link of links) if (link.kind === 'fork' && link.laterId === sessionId && link.nodeId !== null) forkPoints.set(link.nodeId, link.earlierId);
  for (let i = 0; i < all.length; i++) {
    const node = all[i]!;
    if (node.sessionId === sessionId && node.parentId !== null && forkPoints.has(node.parentId)) all[i] = withEdge(node, { kind: 'fork-of', nodeId: node.parentId });
  }
  // Forks made from this line of work: each one's first own step, a branch into the other session.
  const inChain = new Set(chain);
  for (const link of links) {
    if (link.kind !== 'fork' || !inChain.has(link.earlierId) || link.nodeId === null || !ids.has(link.nodeId) || inChain.has(link.laterId)) continue;
    const first = store.getSessionNodesPage(link.laterId, FIRST_PAGE, 1).nodes[0];
    if (first === undefined || ids.has(first.id)) continue;
    ids.add(first.id);
    all.push(withEdge({ ...first, parentId: link.nodeId }, { kind: 'fork-of', nodeId: link.nodeId }));
  }
  return all;
}

/** The summary with its links to other sessions (titles read from the store; null: not imported). */
export function withLinks(store: Pick<SessionStore, 'getSession'>, summary: SessionSummary, links: readonly LineageLink[]): SessionSummary {
  const mine: SessionLink[] = [];
  for (const link of links) {
    const direction = link.laterId === summary.id ? 'earlier' : link.earlierId === summary.id ? 'later' : null;
    if (direction === null) continue;
    const otherId = direction === 'earlier' ? link.earlierId : link.laterId;
    const other = store.getSession(otherId);
    const title = other !== null && other.fileCount > 0 ? other.title : null;
    mine.push({ kind: link.kind, direction, sessionId: otherId, title, nodeId: link.nodeId });
  }
  return mine.length === 0 ? summary : { ...summary, links: mine };
}

/** How `later` goes on from `earlier` in a chain: 'follows' only when no continued-in record says 'continues'. */
function chainKind(links: readonly LineageLink[], earlier: SessionId, later: SessionId): 'continues' | 'follows' {
  return links.some((link) => link.kind === 'continues' && link.earlierId === earlier && link.laterId === later) ? 'continues' : 'follows';
}

/** The sessions of one line of continuations (and followers) through `sessionId`, earliest first (a cycle stops the walk). */
function continuationChain(links: readonly LineageLink[], sessionId: SessionId): SessionId[] {
  const earlierOf = new Map<string, string>();
  const laterOf = new Map<string, string>();
  for (const link of links) {
    if (link.kind === 'fork') continue;
    if (!earlierOf.has(link.laterId)) earlierOf.set(link.laterId, link.earlierId);
    if (!laterOf.has(link.earlierId)) laterOf.set(link.earlierId, link.laterId);
  }
  const seen = new Set<string>([sessionId]);
  const before: string[] = [];
  for (let id = earlierOf.get(sessionId); id !== undefined && !seen.has(id); id = earlierOf.get(id)) {
    seen.add(id);
    before.push(id);
  }
  const after: string[] = [];
  for (let id = laterOf.get(sessionId); id !== undefined && !seen.has(id); id = laterOf.get(id)) {
    seen.add(id);
    after.push(id);
  }
  return [...before.reverse(), sessionId, ...after];
}

function lastMainStep(nodes: readonly NodeSummary[]): string | null {
  for (let i = nodes.length - 1; i >= 0; i--) if (!nodes[i]!.sidechain) return nodes[i]!.id;
  return null;
}

function withEdge(node: NodeSummary, edge: ExtraEdge): NodeSummary {
  if (node.extraEdges.some((e) => e.kind === edge.kind && e.nodeId === edge.nodeId)) return node;
  return { ...node, extraEdges: [...node.extraEdges, edge] };
}
