/**
 * A session graph in chunks: the compact form of shared/session-graph-wire.ts cut into runs of nodes that
 * each stand alone (parents inside a chunk by its own index, others by id), so a chunk is encoded once when
 * its nodes are stored, kept as it is, and sent as it is (a 1M-node session is ~60 chunks, not 1M rows).
 * Decoded one by one they give the nodes; assembled they give one EncodedSessionGraph, which the existing
 * decoder turns into the same SessionGraph that `sessions.graph` answers.
 */
import { ArborError } from './errors';
import type { NodeSummary, SessionGraph, SessionSummary } from './model';
import { decodeSessionGraph, dictionary, encodeSessionGraph, SESSION_GRAPH_CODEC, type EncodedSessionGraph } from './session-graph-wire';

export const SESSION_GRAPH_CHUNK_CODEC = 'session-graph-chunk/1';

/**
 * Nodes per stored chunk, so per `sessions.graphPage` page (the last one shorter): ~2 MB of chunk text, ~60
 * pages for a 1M-node session. The renderer reads it too: from a session's node count it knows how many
 * pages to ask for at once, before page 0 has said.
 */
export const GRAPH_PAGE_NODES = 16_384;

/**
 * Pages a reader asks for and has not yet taken, at most (renderer/src/client/session-graph-pages.ts): the
 * host reads a page only when asked, so what it holds for one read stays a few pages whatever the session's
 * size. Every page at once, the 23 pages of a 1 GB session were read and queued together in the serving
 * process (+160 MB), and a session past ~1M nodes (64 pages) was more calls than a socket may keep running.
 */
export const PAGES_IN_FLIGHT = 4;

/** The pages a stored graph of `nodeCount` nodes has (1 for none: page 0 still answers). */
export function graphPagesFor(nodeCount: number): number {
  return Math.max(1, Math.ceil(nodeCount / GRAPH_PAGE_NODES));
}

/** The columns of EncodedSessionGraph for one run of nodes; indices (parents, edgeTargets) count within the chunk. */
export type SessionGraphChunk = Omit<EncodedSessionGraph, 'codec' | 'session' | 'workspaceNodes'> & { readonly codec: typeof SESSION_GRAPH_CHUNK_CODEC };

/** What a chunk is encoded against: only the session id is read (nodes of another session do not fit a chunk). */
function stubSession(sessionId: string): SessionSummary {
  return { id: sessionId, source: 'claude-code', title: '', project: null, startedAt: null, updatedAt: null, nodeCount: 0, fileCount: 0, branchCount: 0 };
}

/** Null when a node does not fit the form (another session's node, a sourceId other than its id). */
export function encodeSessionGraphChunk(sessionId: string, nodes: readonly NodeSummary[]): SessionGraphChunk | null {
  const encoded = encodeSessionGraph({ session: stubSession(sessionId), nodes });
  if (encoded === null) return null;
  const { codec: _codec, session: _session, workspaceNodes: _workspace, ...columns } = encoded;
  return { ...columns, codec: SESSION_GRAPH_CHUNK_CODEC };
}

export function isSessionGraphChunk(value: unknown): value is SessionGraphChunk {
  return typeof value === 'object' && value !== null && (value as { codec?: unknown }).codec === SESSION_GRAPH_CHUNK_CODEC;
}

/** The chunk's nodes, each as sessions.graph gives it (parents outside the chunk by their id). */
export function decodeSessionGraphChunk(sessionId: string, chunk: SessionGraphChunk): readonly NodeSummary[] {
  return decodeSessionGraph({ ...chunk, codec: SESSION_GRAPH_CODEC, session: stubSession(sessionId) }).nodes;
}

function malformed(what: string): never {
  throw new ArborError('INTERNAL', `Malformed session graph chunk from Arbor: ${what}`);
}

/** Codes of one chunk's table mapped into the assembled table (values appended on first sight). */
function tableMerger<T>() {
  const merged = dictionary<T>();
  return { table: merged.table, remap: (local: readonly T[]): number[] => local.map((value) => merged.code(value)) };
}

/**
 * The chunks (in order) as one EncodedSessionGraph over the whole session: indices shifted by each chunk's
 * start, dictionary codes remapped, time deltas carried across chunks, and parents or edge ends a chunk
 * named by id resolved to their index when they are in another chunk (the layout links by index).
 */
export function assembleSessionGraphChunks(
  session: SessionSummary,
  chunks: readonly SessionGraphChunk[],
  workspaceNodes?: SessionGraph['workspaceNodes'],
): EncodedSessionGraph {
  const assembler = createSessionGraphAssembler(session, workspaceNodes);
  for (const chunk of chunks) assembler.add(chunk);
  return assembler.finish();
}

export interface SessionGraphAssembler {
  /** Appends the next chunk in order; the chunk is not kept (only its columns, copied). */
  add(chunk: SessionGraphChunk): void;
  /** The whole graph so far, ids named across chunks resolved; call once. */
  finish(): EncodedSessionGraph;
}

/**
 * assembleSessionGraphChunks one chunk at a time: a caller that parses the stored texts one by one (and gives
 * the event loop back between them) holds one parsed chunk at a time, not all of them beside the result.
 */
export function createSessionGraphAssembler(session: SessionSummary, workspaceNodes?: SessionGraph['workspaceNodes']): SessionGraphAssembler {
  const kinds = tableMerger<string>();
  const agents = tableMerger<string | null>();
  const models = tableMerger<string | null>();
  const callNames = tableMerger<string>();
  const ids: string[] = [];
  const parents: (number | string)[] = [];
  const sourceParents: (number | string | null)[] = [];
  const kindCodes: number[] = [];
  const times: (number | string | null)[] = [];
  const labels: string[] = [];
  const sidechain: (0 | 1)[] = [];
  const agentCodes: number[] = [];
  const modelCodes: number[] = [];
  const edges: (number | string)[] = [];
  const edgeTargets: number[] = [];
  const calls: (number | string)[] = [];
  /** Ids named across chunks: resolved once every id is known. */
  const named = new Map<string, number>();
  let previousMs = 0;
  const add = (chunk: SessionGraphChunk): void => {
    if (!isSessionGraphChunk(chunk) || !Array.isArray(chunk.ids)) malformed('not a chunk');
    const start = ids.length;
    const count = chunk.ids.length;
    for (const name of ['parents', 'kinds', 'times', 'labels', 'sidechain', 'agents', 'models'] as const) {
      if (!Array.isArray(chunk[name]) || chunk[name].length !== count) malformed(`${name} has the wrong length`);
    }
    const kindMap = kinds.remap(chunk.kindTable);
    const agentMap = agents.remap(chunk.agentTable);
    const modelMap = models.remap(chunk.modelTable);
    const callMap = callNames.remap(chunk.callNameTable);
    let chunkMs = 0;
    for (let i = 0; i < count; i++) {
      ids.push(chunk.ids[i]!);
      const parent = chunk.parents[i]!;
      if (typeof parent === 'string') named.set(parent, -1);
      parents.push(typeof parent === 'number' && parent >= 0 ? parent + start : parent);
      kindCodes.push(kindMap[chunk.kinds[i]!] ?? malformed('bad kind code'));
      const time = chunk.times[i]!;
      if (typeof time === 'number') {
        // A chunk's first delta counts from 0: it is the absolute time, re-based on the previous chunk's last.
        chunkMs += time;
        times.push(chunkMs - previousMs);
        previousMs = chunkMs;
      } else times.push(time);
      labels.push(chunk.labels[i]!);
      sidechain.push(chunk.sidechain[i]!);
      agentCodes.push(agentMap[chunk.agents[i]!] ?? malformed('bad agent code'));
      modelCodes.push(modelMap[chunk.models[i]!] ?? malformed('bad model code'));
    }
    for (let k = 0; k + 1 < chunk.sourceParents.length; k += 2) sourceParents.push((chunk.sourceParents[k] as number) + start, chunk.sourceParents[k + 1]!);
    for (let k = 0, e = 0; k + 2 < chunk.edges.length; k += 3, e++) {
      edges.push((chunk.edges[k] as number) + start, chunk.edges[k + 1]!, chunk.edges[k + 2]!);
      const target = chunk.edgeTargets?.[e] ?? -1;
      if (target < 0) named.set(chunk.edges[k + 2] as string, -1);
      edgeTargets.push(target < 0 ? -1 : target + start);
    }
    for (let k = 0; k + 3 < chunk.calls.length; k += 4) {
      calls.push((chunk.calls[k] as number) + start, chunk.calls[k + 1]!, callMap[chunk.calls[k + 2] as number] ?? malformed('bad tool name code'), chunk.calls[k + 3]!);
    }
  };
  const finish = (): EncodedSessionGraph => {
    if (named.size > 0) {
      for (let i = 0; i < ids.length; i++) if (named.get(ids[i]!) === -1) named.set(ids[i]!, i);
      for (let i = 0; i < parents.length; i++) {
        const parent = parents[i]!;
        if (typeof parent === 'string') {
          const index = named.get(parent) ?? -1;
          if (index >= 0) parents[i] = index;
        }
      }
      for (let e = 0; e < edgeTargets.length; e++) if (edgeTargets[e]! < 0) edgeTargets[e] = named.get(edges[e * 3 + 2] as string) ?? -1;
    }
    return {
      codec: SESSION_GRAPH_CODEC,
      session,
      ...(workspaceNodes === undefined ? {} : { workspaceNodes }),
      ids,
      parents,
      sourceParents,
      kindTable: kinds.table,
      kinds: kindCodes,
      times,
      labels,
      sidechain,
      agentTable: agents.table,
      agents: agentCodes,
      modelTable: models.table,
      models: modelCodes,
      edges,
      edgeTargets,
      callNameTable: callNames.table,
      calls,
    };
  };
  return { add, finish };
}

/** One answer of `sessions.graphPage`. */
export interface SessionGraphPage {
  /** The stored graph's version the page was read from (every page of one graph says the same). */
  readonly version: string;
  readonly page: number;
  readonly pages: number;
  /** Page 0: the session, and the nodes Arbor added (absent when none). */
  readonly session?: SessionSummary;
  readonly workspaceNodes?: SessionGraph['workspaceNodes'];
  /** The page's SessionGraphChunk as JSON text, as stored; '' when `graph` or `chunkValue` answers instead. */
  readonly chunk: string;
  /**
   * The chunk itself, where the transport wrote the stored text into its own JSON as it is (the web host's
   * wireText): escaped into a string, 13 MB of pages at 100k nodes were escaped by the host, then unescaped
   * and parsed a second time by the page.
   */
  readonly chunkValue?: SessionGraphChunk;
  /**
   * A graph that is not the stored one alone (Arbor's nodes, a linked session's, a store that cannot keep
   * it): the whole of it on page 0, in `sessions.graph`'s transport form, and `pages` is 1.
   */
  readonly graph?: unknown;
}

/** The text a stored chunk ends with (chunkText writes `codec` last), which marks a page's chunk as one. */
const CHUNK_TEXT_END = `"codec":${JSON.stringify(SESSION_GRAPH_CHUNK_CODEC)}}`;

/** Whether a result is a `sessions.graphPage` answer carrying a stored chunk's text. */
export function isStoredChunkPage(value: unknown): value is SessionGraphPage {
  if (typeof value !== 'object' || value === null) return false;
  const page = value as Partial<SessionGraphPage>;
  return typeof page.version === 'string' && typeof page.pages === 'number' && typeof page.chunk === 'string' && page.chunk.startsWith('{') && page.chunk.endsWith(CHUNK_TEXT_END);
}

/** A page's chunk, whichever way it travelled. */
export function chunkOfPage(page: SessionGraphPage): SessionGraphChunk {
  return page.chunkValue ?? (JSON.parse(page.chunk) as SessionGraphChunk);
}
