/**
 * A compact transport form of SessionGraph, for the `arbor serve` WebSocket. As plain NodeSummary JSON a
 * 10k-node session is ~4.9 MB (every node repeats its session id, its own id as sourceId, its parent's id
 * and ten key names); column arrays with parents as indices, small dictionaries and time deltas make it
 * ~1.5 MB, which is cheaper to stringify, send, decode and parse. Callers never see this form: the host
 * encodes a `sessions.graph` result right before sending, the client decodes it right after receiving.
 */
import { ArborError } from './errors';
import type { ExtraEdge, ExtraEdgeKind, NodeKind, NodeSummary, SessionGraph, SessionSummary, ToolCallRef, ToolOutcome } from './model';

export const SESSION_GRAPH_CODEC = 'session-graph/1';

export interface EncodedSessionGraph {
  readonly codec: typeof SESSION_GRAPH_CODEC;
  readonly session: SessionSummary;
  /** Passed through as is (a handful of entries). */
  readonly workspaceNodes?: SessionGraph['workspaceNodes'];
  readonly ids: readonly string[];
  /** Per node: the parent's index in `ids`, -1 for none, or the parent's id when it is not in this graph. */
  readonly parents: readonly (number | string)[];
  /** Flat [index, parentSourceId] pairs for the nodes whose parentSourceId differs from their parentId. */
  readonly sourceParents: readonly (number | string | null)[];
  readonly kindTable: readonly string[];
  readonly kinds: readonly number[];
  /**
   * Per node: ms since the previous numeric entry (the first counts from 0) when the timestamp is a
   * canonical ISO string (`toISOString()` gives it back exactly), else the string itself, or null.
   */
  readonly times: readonly (number | string | null)[];
  readonly labels: readonly string[];
  readonly sidechain: readonly (0 | 1)[];
  readonly agentTable: readonly (string | null)[];
  readonly agents: readonly number[];
  readonly modelTable: readonly (string | null)[];
  readonly models: readonly number[];
  /** Flat [index, edge kind, other id] triples, nodes in order. */
  readonly edges: readonly (number | string)[];
  /**
   * Per edge triple: the other end's index in `ids`, -1 when it is not in this graph, so the renderer links
   * the tree without an id map of every node (shared/graph/packed-nodes.ts). Absent from older senders.
   */
  readonly edgeTargets?: readonly number[];
  readonly callNameTable: readonly string[];
  /** Flat [index, tool_use id, name code, outcome code] quads, nodes and calls in order. */
  readonly calls: readonly (number | string)[];
}

const OUTCOMES: readonly ToolOutcome[] = ['ok', 'error', 'missing'];
const NO_EDGES: readonly ExtraEdge[] = Object.freeze([]);
const NO_CALLS: readonly ToolCallRef[] = Object.freeze([]);

/** Codes each value by its first appearance; the table lists the distinct values (the wire's and the chunks' tables). */
export function dictionary<T>() {
  const codes = new Map<T, number>();
  const table: T[] = [];
  return {
    table,
    code(value: T): number {
      let code = codes.get(value);
      if (code === undefined) {
        code = table.length;
        codes.set(value, code);
        table.push(value);
      }
      return code;
    },
  };
}

/** The shape toISOString() gives, fields in range (a day past the month's end is checked separately). */
const ISO_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * The ms of a timestamp that toISOString() gives back exactly, else null. Date.parse accepts Feb 30 (as
 * Mar 2), so each new calendar day is checked once by a full round trip; later times of that day need not be.
 */
function timeParser(): (timestamp: string) => number | null {
  let checkedDay = '';
  return (timestamp) => {
    if (!ISO_TIME.test(timestamp)) return null;
    const ms = Date.parse(timestamp);
    if (!Number.isFinite(ms)) return null;
    if (checkedDay !== '' && timestamp.startsWith(checkedDay)) return ms;
    if (new Date(ms).toISOString() !== timestamp) return null;
    checkedDay = timestamp.slice(0, 11); // 'YYYY-MM-DDT'
    return ms;
  };
}

const DAY_MS = 86_400_000;

const ZERO = 48;

/**
 * `new Date(ms).toISOString()`, with the date part kept from the previous call on the same UTC day: the
 * times of a session's nodes are mostly minutes apart, and a Date plus its formatting per node was most of
 * decoding a 100k-node graph. The date part always comes from toISOString itself, so any year formats alike.
 * The text is made from its character codes in one piece: a template of the parts was a tree of 8 joined
 * strings that stayed one (277 bytes a timestamp, not 40: 21 MB of an 86k-node session's states, decoded).
 */
export function isoTimeFormatter(): (ms: number) => string {
  let dayStart = Number.NaN;
  /** The day's part ('YYYY-MM-DDT', longer past year 9999), then the 13 units of 'HH:MM:SS.mmmZ'. */
  const codes: number[] = [];
  let at = 0;
  return (ms) => {
    const offset = ms - dayStart;
    if (!(offset >= 0 && offset < DAY_MS) || !Number.isInteger(ms)) {
      const iso = new Date(ms).toISOString();
      dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
      at = iso.indexOf('T') + 1;
      codes.length = 0;
      for (let k = 0; k < iso.length; k++) codes.push(iso.charCodeAt(k));
      return iso;
    }
    const hours = Math.floor(offset / 3_600_000);
    const minutes = Math.floor(offset / 60_000) % 60;
    const seconds = Math.floor(offset / 1000) % 60;
    const millis = offset % 1000;
    codes[at] = ZERO + Math.floor(hours / 10);
    codes[at + 1] = ZERO + (hours % 10);
    codes[at + 3] = ZERO + Math.floor(minutes / 10);
    codes[at + 4] = ZERO + (minutes % 10);
    codes[at + 6] = ZERO + Math.floor(seconds / 10);
    codes[at + 7] = ZERO + (seconds % 10);
    codes[at + 9] = ZERO + Math.floor(millis / 100);
    codes[at + 10] = ZERO + (Math.floor(millis / 10) % 10);
    codes[at + 11] = ZERO + (millis % 10);
    return String.fromCharCode(...codes);
  };
}

/** Null when a node does not fit the form (a foreign session id, a sourceId other than its id): send it plain. */
export function encodeSessionGraph(graph: SessionGraph): EncodedSessionGraph | null {
  const { nodes } = graph;
  const indexById = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) if (!indexById.has(nodes[i]!.id)) indexById.set(nodes[i]!.id, i);
  const kinds = dictionary<string>();
  const agents = dictionary<string | null>();
  const models = dictionary<string | null>();
  const callNames = dictionary<string>();
  const encoded = {
    ids: new Array<string>(nodes.length),
    parents: new Array<number | string>(nodes.length),
    sourceParents: [] as (number | string | null)[],
    kinds: new Array<number>(nodes.length),
    times: new Array<number | string | null>(nodes.length),
    labels: new Array<string>(nodes.length),
    sidechain: new Array<0 | 1>(nodes.length),
    agents: new Array<number>(nodes.length),
    models: new Array<number>(nodes.length),
    edges: [] as (number | string)[],
    edgeTargets: [] as number[],
    calls: [] as (number | string)[],
  };
  const canonicalTime = timeParser();
  let previousMs = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    // sessionId and sourceId are not sent: the decoder restores them from the session and the id.
    if (node.sessionId !== graph.session.id || node.sourceId !== node.id) return null;
    encoded.ids[i] = node.id;
    encoded.parents[i] = node.parentId === null ? -1 : (indexById.get(node.parentId) ?? node.parentId);
    if (node.parentSourceId !== node.parentId) encoded.sourceParents.push(i, node.parentSourceId);
    encoded.kinds[i] = kinds.code(node.kind);
    const ms = node.timestamp === null ? null : canonicalTime(node.timestamp);
    if (ms === null) encoded.times[i] = node.timestamp;
    else {
      encoded.times[i] = ms - previousMs;
      previousMs = ms;
    }
    encoded.labels[i] = node.label;
    encoded.sidechain[i] = node.sidechain ? 1 : 0;
    encoded.agents[i] = agents.code(node.agentId);
    encoded.models[i] = models.code(node.model);
    for (const edge of node.extraEdges) {
      encoded.edges.push(i, edge.kind, edge.nodeId);
      encoded.edgeTargets.push(indexById.get(edge.nodeId) ?? -1);
    }
    for (const call of node.toolCalls) encoded.calls.push(i, call.id, callNames.code(call.name), OUTCOMES.indexOf(call.outcome));
  }
  return {
    codec: SESSION_GRAPH_CODEC,
    session: graph.session,
    ...(graph.workspaceNodes === undefined ? {} : { workspaceNodes: graph.workspaceNodes }),
    ...encoded,
    kindTable: kinds.table,
    agentTable: agents.table,
    modelTable: models.table,
    callNameTable: callNames.table,
  };
}

export function isEncodedSessionGraph(value: unknown): value is EncodedSessionGraph {
  return typeof value === 'object' && value !== null && (value as { codec?: unknown }).codec === SESSION_GRAPH_CODEC;
}

function malformed(what: string): never {
  throw new ArborError('INTERNAL', `Malformed session graph from Arbor: ${what}`);
}

function column<T>(value: readonly T[] | undefined, length: number, name: string): readonly T[] {
  if (!Array.isArray(value) || value.length !== length) malformed(`${name} has the wrong length`);
  return value;
}

function pick<T>(table: readonly T[], code: unknown, name: string): T {
  if (typeof code !== 'number' || !(code >= 0 && code < table.length)) malformed(`bad ${name} code`);
  return table[code]!;
}

/** Rebuilds the SessionGraph that was encoded (deep-equal to it); throws ArborError INTERNAL on bad input. */
/** Flat [node index, kind, other id] triples (the wire's and the layout worker's form), grouped by node. */
export function edgesByNode(flat: readonly (number | string)[]): Map<number, ExtraEdge[]> {
  const edges = new Map<number, ExtraEdge[]>();
  for (let k = 0; k + 2 < flat.length; k += 3) {
    const index = flat[k] as number;
    const edge: ExtraEdge = { kind: flat[k + 1] as ExtraEdgeKind, nodeId: flat[k + 2] as string };
    const list = edges.get(index);
    if (list) list.push(edge);
    else edges.set(index, [edge]);
  }
  return edges;
}

export function decodeSessionGraph(encoded: EncodedSessionGraph): SessionGraph {
  const { session } = encoded;
  const ids = encoded.ids;
  if (!Array.isArray(ids) || typeof session !== 'object' || session === null) malformed('no ids or session');
  const count = ids.length;
  const parents = column(encoded.parents, count, 'parents');
  const kinds = column(encoded.kinds, count, 'kinds');
  const times = column(encoded.times, count, 'times');
  const labels = column(encoded.labels, count, 'labels');
  const sidechain = column(encoded.sidechain, count, 'sidechain');
  const agents = column(encoded.agents, count, 'agents');
  const models = column(encoded.models, count, 'models');
  const parentIds = new Array<string | null>(count);
  const parentSourceIds = new Array<string | null>(count);
  for (let i = 0; i < count; i++) {
    const parent = parents[i];
    const id = typeof parent === 'string' ? parent : parent === -1 ? null : typeof parent === 'number' ? ids[parent] : undefined;
    if (id === undefined) malformed(`bad parent of node ${i}`);
    parentIds[i] = id;
    parentSourceIds[i] = id;
  }
  const pairs = encoded.sourceParents;
  for (let k = 0; k + 1 < pairs.length; k += 2) parentSourceIds[pairs[k] as number] = pairs[k + 1] as string | null;
  const edges = edgesByNode(encoded.edges);
  const calls = new Map<number, ToolCallRef[]>();
  for (let k = 0; k + 3 < encoded.calls.length; k += 4) {
    const index = encoded.calls[k] as number;
    const call: ToolCallRef = {
      id: encoded.calls[k + 1] as string,
      name: pick(encoded.callNameTable, encoded.calls[k + 2], 'tool name'),
      outcome: pick(OUTCOMES, encoded.calls[k + 3], 'outcome'),
    };
    const list = calls.get(index);
    if (list) list.push(call);
    else calls.set(index, [call]);
  }
  const nodes = new Array<NodeSummary>(count);
  const isoTime = isoTimeFormatter();
  let ms = 0;
  for (let i = 0; i < count; i++) {
    const time = times[i];
    let timestamp: string | null;
    if (typeof time === 'number') {
      ms += time;
      timestamp = isoTime(ms);
    } else timestamp = time ?? null;
    nodes[i] = {
      id: ids[i]!,
      sessionId: session.id,
      sourceId: ids[i]!,
      parentSourceId: parentSourceIds[i]!,
      parentId: parentIds[i]!,
      extraEdges: edges.get(i) ?? NO_EDGES,
      kind: pick(encoded.kindTable, kinds[i], 'kind') as NodeKind,
      timestamp,
      label: labels[i]!,
      toolCalls: calls.get(i) ?? NO_CALLS,
      sidechain: sidechain[i] === 1,
      agentId: pick(encoded.agentTable, agents[i], 'agent'),
      model: pick(encoded.modelTable, models[i], 'model'),
    };
  }
  return encoded.workspaceNodes === undefined ? { session, nodes } : { session, nodes, workspaceNodes: encoded.workspaceNodes };
}

/**
 * Graphs whose compact form is known before anyone asked the transport to encode them: the service builds a
 * stored session's graph straight from its stored chunks in this form (session-graphs.ts), and decodes its
 * nodes only when a caller in the process reads them, so a big session is not held as node objects and as its
 * encoding at once. Weak: the form lives as long as the graph does.
 */
const encodedForms = new WeakMap<SessionGraph, EncodedSessionGraph>();

export function rememberEncodedGraph(graph: SessionGraph, encoded: EncodedSessionGraph): void {
  encodedForms.set(graph, encoded);
}

/** The compact form remembered for this graph object, if any (rememberEncodedGraph). */
export function rememberedEncodedGraph(graph: SessionGraph): EncodedSessionGraph | undefined {
  return encodedForms.get(graph);
}
