/**
 * A session graph's stored chunks (shared/session-graph-chunks.ts) decoded straight into its nodes and their
 * packed form (what the layout worker is posted), chunk by chunk. Assembling the chunks into one compact form
 * first, then decoding and packing that, built a dozen session-long arrays only to read each once; at 100k
 * nodes that was a third of the renderer's decode and much of its garbage collection. The answer is the same
 * as decodeSessionGraph(assembleSessionGraphChunks(…)) with packEncodedNodes (the unit test holds them equal).
 */
import { ArborError } from './errors';
import type { PackedGraphNodes } from './graph/packed-nodes';
import type { ExtraEdge, ExtraEdgeKind, NodeKind, NodeSummary, SessionGraph, SessionSummary, ToolCallRef, ToolOutcome } from './model';
import { isSessionGraphChunk, type SessionGraphChunk } from './session-graph-chunks';
import { dictionary, isoTimeFormatter } from './session-graph-wire';

export interface DecodedSessionGraph {
  readonly graph: SessionGraph;
  /** Null when a node does not fit the packed form (the view packs or posts objects then). */
  readonly packed: PackedGraphNodes | null;
}

const OUTCOMES: readonly ToolOutcome[] = ['ok', 'error', 'missing'];
const NO_EDGES: readonly ExtraEdge[] = Object.freeze([]);
const NO_CALLS: readonly ToolCallRef[] = Object.freeze([]);
const COLUMNS = ['parents', 'kinds', 'times', 'labels', 'sidechain', 'agents', 'models'] as const;

function malformed(what: string): never {
  throw new ArborError('INTERNAL', `Malformed session graph chunk from Arbor: ${what}`);
}

/** A value of a chunk's own table, checked. */
function pick<T>(table: readonly T[], code: unknown, name: string): T {
  if (typeof code !== 'number' || !(code >= 0 && code < table.length)) malformed(`bad ${name} code`);
  return table[code]!;
}

/** Checks a chunk's shape (ArborError INTERNAL when it is not one). */
function checkChunk(chunk: SessionGraphChunk): void {
  if (!isSessionGraphChunk(chunk) || !Array.isArray(chunk.ids)) malformed('not a chunk');
  const count = chunk.ids.length;
  for (const name of COLUMNS) if (!Array.isArray(chunk[name]) || chunk[name].length !== count) malformed(`${name} has the wrong length`);
  for (const name of ['sourceParents', 'edges', 'calls', 'kindTable', 'agentTable', 'modelTable', 'callNameTable'] as const) {
    if (!Array.isArray(chunk[name])) malformed(`no ${name}`);
  }
}

export interface SessionGraphChunkDecoder {
  /** The next chunk in order: its nodes are decoded now (while the later pages are still on their way). */
  add(chunk: SessionGraphChunk): void;
  /**
   * The graph of the chunks added so far, while more are on their way (the view draws the session's start
   * from it): the same nodes, as their own array; the decoder goes on unchanged.
   */
  preview(): DecodedSessionGraph;
  /** The graph of every chunk added; parents and edge ends named across chunks are resolved here. */
  finish(): DecodedSessionGraph;
}

/** The chunks (in order) as the session's graph and its packed nodes; throws ArborError INTERNAL on bad input. */
export function decodeSessionGraphChunks(
  session: SessionSummary,
  chunks: readonly SessionGraphChunk[],
  workspaceNodes?: SessionGraph['workspaceNodes'],
): DecodedSessionGraph {
  const decoder = createSessionGraphChunkDecoder(session, workspaceNodes);
  for (const chunk of chunks) decoder.add(chunk);
  return decoder.finish();
}

/**
 * decodeSessionGraphChunks a chunk at a time, as the pages arrive. A parent or edge end a chunk names by id
 * (it is in another chunk, maybe a later one) is resolved to the first node with that id when all are in.
 */
export function createSessionGraphChunkDecoder(session: SessionSummary, workspaceNodes?: SessionGraph['workspaceNodes']): SessionGraphChunkDecoder {
  const nodes: NodeSummary[] = [];
  const timestamps: string[] = [];
  const parentParts: Int32Array[] = [];
  const kindParts: Uint8Array[] = [];
  const sidechainParts: Uint8Array[] = [];
  const idsOfChunks: (readonly string[])[] = [];
  const packedEdges: (number | string)[] = [];
  const edgeTargets: number[] = [];
  const idParts: string[] = [];
  const kindTable = dictionary<string>();
  const isoTime = isoTimeFormatter();
  /** Nodes whose parent a chunk named by id, as [node index, parent id] pairs; edges whose end it named, by edge index. */
  const namedParents: (number | string)[] = [];
  const namedEnds: number[] = [];
  let packable = true;
  let start = 0;
  return {
    add(chunk) {
      checkChunk(chunk);
      const count = chunk.ids.length;
      const parents = new Int32Array(count);
      const kinds = new Uint8Array(count);
      const sidechain = new Uint8Array(count);
      const kindCodes = chunk.kindTable.map((kind) => kindTable.code(kind));
      const sourceParents = new Map<number, string | null>();
      for (let k = 0; k + 1 < chunk.sourceParents.length; k += 2) sourceParents.set(chunk.sourceParents[k] as number, chunk.sourceParents[k + 1] as string | null);
      const edges = new Map<number, ExtraEdge[]>();
      for (let k = 0, e = 0; k + 2 < chunk.edges.length; k += 3, e++) {
        const index = chunk.edges[k] as number;
        const edge: ExtraEdge = { kind: chunk.edges[k + 1] as ExtraEdgeKind, nodeId: chunk.edges[k + 2] as string };
        const list = edges.get(index);
        if (list) list.push(edge);
        else edges.set(index, [edge]);
        const local = chunk.edgeTargets?.[e] ?? -1;
        if (local < 0) namedEnds.push(edgeTargets.length);
        packedEdges.push(index + start, edge.kind, edge.nodeId);
        edgeTargets.push(local < 0 ? -1 : local + start);
      }
      const calls = new Map<number, ToolCallRef[]>();
      for (let k = 0; k + 3 < chunk.calls.length; k += 4) {
        const index = chunk.calls[k] as number;
        const call: ToolCallRef = {
          id: chunk.calls[k + 1] as string,
          name: pick(chunk.callNameTable, chunk.calls[k + 2], 'tool name'),
          outcome: pick(OUTCOMES, chunk.calls[k + 3], 'outcome'),
        };
        const list = calls.get(index);
        if (list) list.push(call);
        else calls.set(index, [call]);
      }
      // A chunk's first time delta counts from 0: it is the absolute time.
      let ms = 0;
      for (let i = 0; i < count; i++) {
        const at = start + i;
        const id = chunk.ids[i]!;
        const parent = chunk.parents[i];
        let parentId: string | null;
        if (parent === -1) {
          parentId = null;
          parents[i] = -1;
        } else if (typeof parent === 'number' && Number.isInteger(parent) && parent >= 0 && parent < count) {
          parentId = chunk.ids[parent]!;
          parents[i] = start + parent;
        } else if (typeof parent === 'string') {
          parentId = parent;
          namedParents.push(at, parent);
        } else malformed(`bad parent of node ${at}`);
        const time = chunk.times[i];
        let timestamp: string | null;
        if (typeof time === 'number') {
          ms += time;
          timestamp = isoTime(ms);
        } else timestamp = time ?? null;
        const kindCode = pick(kindCodes, chunk.kinds[i], 'kind');
        nodes.push({
          id,
          sessionId: session.id,
          sourceId: id,
          parentSourceId: sourceParents.has(i) ? sourceParents.get(i)! : parentId,
          parentId,
          extraEdges: edges.get(i) ?? NO_EDGES,
          kind: kindTable.table[kindCode] as NodeKind,
          timestamp,
          label: chunk.labels[i]!,
          toolCalls: calls.get(i) ?? NO_CALLS,
          sidechain: chunk.sidechain[i] === 1,
          agentId: pick(chunk.agentTable, chunk.agents[i], 'agent'),
          model: pick(chunk.modelTable, chunk.models[i], 'model'),
        });
        if (packable && (id.includes('\n') || timestamp === '' || (timestamp !== null && timestamp.includes('\n')))) packable = false;
        timestamps.push(timestamp ?? '');
        kinds[i] = kindCode;
        sidechain[i] = chunk.sidechain[i]!;
      }
      parentParts.push(parents);
      kindParts.push(kinds);
      sidechainParts.push(sidechain);
      idsOfChunks.push(chunk.ids);
      if (count > 0) idParts.push(chunk.ids.join('\n'));
      start += count;
    },
    preview: () => build(true),
    finish: () => build(false),
  };

  /**
   * The graph of the chunks added so far. `preview`: the decoder goes on after it, so nothing it keeps is
   * handed out or changed (the nodes array, parents and edge ends are copies); names not among the nodes so
   * far are outside the graph, as in the final graph.
   */
  function build(preview: boolean): DecodedSessionGraph {
    const total = start;
    const parents = joined(Int32Array, parentParts, total, preview);
    const kinds = joined(Uint8Array, kindParts, total, preview);
    const sidechain = joined(Uint8Array, sidechainParts, total, preview);
    const targets = preview ? edgeTargets.slice() : edgeTargets;
    const outsideParents: (number | string)[] = [];
    let fits = packable;
    if (namedParents.length > 0 || namedEnds.length > 0) {
      // The first node with each id a chunk named, found in one pass over the ids.
      const named = new Map<string, number>();
      for (let k = 1; k < namedParents.length; k += 2) named.set(namedParents[k] as string, -1);
      for (const e of namedEnds) named.set(packedEdges[e * 3 + 2] as string, -1);
      let at = 0;
      for (const ids of idsOfChunks) {
        for (let i = 0; i < ids.length; i++) if (named.get(ids[i]!) === -1) named.set(ids[i]!, at + i);
        at += ids.length;
      }
      for (let k = 0; k + 1 < namedParents.length; k += 2) {
        const node = namedParents[k] as number;
        const index = named.get(namedParents[k + 1] as string) ?? -1;
        if (index >= 0) parents[node] = index;
        else {
          parents[node] = -2;
          outsideParents.push(node, namedParents[k + 1]!);
        }
      }
      for (const e of namedEnds) targets[e] = named.get(packedEdges[e * 3 + 2] as string) ?? -1;
    }
    for (const target of targets) if (!(Number.isInteger(target) && target >= -1 && target < total)) fits = false;
    const shown = preview ? nodes.slice() : nodes;
    const added = preview ? workspaceNodesAmong(shown, workspaceNodes) : workspaceNodes;
    const graph: SessionGraph = added === undefined ? { session, nodes: shown } : { session, nodes: shown, workspaceNodes: added };
    if (!fits || kindTable.table.length > 255) return { graph, packed: null };
    return {
      graph,
      packed: {
        count: total,
        ids: idParts.join('\n'),
        timestamps: timestamps.join('\n'),
        parents,
        outsideParents,
        kindTable: kindTable.table.slice() as NodeKind[],
        kinds,
        sidechain,
        edges: preview ? packedEdges.slice() : packedEdges,
        edgeTargets: Int32Array.from(targets),
      },
    };
  }
}

/** Arbor's nodes that are among `nodes` (a preview holds the session's first nodes only). */
function workspaceNodesAmong(nodes: readonly NodeSummary[], workspaceNodes: SessionGraph['workspaceNodes']): SessionGraph['workspaceNodes'] {
  if (workspaceNodes === undefined || workspaceNodes.length === 0) return workspaceNodes;
  const wanted = new Set(workspaceNodes.map((info) => info.nodeId));
  const present = new Set<string>();
  for (const node of nodes) if (wanted.has(node.id)) present.add(node.id);
  return workspaceNodes.filter((info) => present.has(info.nodeId));
}

/** One array of `total` from the chunks' parts, in order. */
function joined<T extends Int32Array | Uint8Array>(Type: { new (length: number): T }, parts: readonly T[], total: number, copy = false): T {
  if (!copy && parts.length === 1 && parts[0]!.length === total) return parts[0]!;
  const out = new Type(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
