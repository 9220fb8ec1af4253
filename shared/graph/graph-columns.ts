/**
 * What the session's structure is built from, as columns: kinds, sidechain flags and links by index, with
 * ids and timestamps read one at a time. The layout worker receives a session packed (packed-nodes.ts) and
 * reads these straight from the packed arrays: rebuilding 100k node objects from them first was the worker's
 * largest cost at open (23–104 ms, most of it the garbage those objects and their strings left).
 */
import type { ExtraEdgeKind, NodeId, NodeKind } from '../model';
import type { PackedGraphNodes } from './packed-nodes';
import type { GraphNode, NodeLinks } from './session-tree';

export const EDGE_MERGE = 0;
export const EDGE_LOGICAL = 1;
export const EDGE_SUBAGENT = 2;
/** 'fork-of', and every other edge that hangs a root under another node ('continues', 'follows'). */
export const EDGE_FORK_OF = 3;

const EDGE_CODES: Readonly<Partial<Record<ExtraEdgeKind, number>>> = { merge: EDGE_MERGE, logical: EDGE_LOGICAL, subagent: EDGE_SUBAGENT };

/** What the structure reads of each node besides its links. */
export interface NodeFacts {
  readonly count: number;
  readonly kindTable: readonly NodeKind[];
  /** Per node: its kind's code in kindTable. */
  readonly kinds: Uint8Array;
  readonly sidechain: Uint8Array;
  idOf(index: number): NodeId;
  timestampOf(index: number): string | null;
}

/** Per kind code: 1 when `accept` takes that kind (a lookup per node instead of a string test). */
export function kindCodes(facts: Pick<NodeFacts, 'kindTable'>, accept: (kind: NodeKind) => boolean): Uint8Array {
  return Uint8Array.from(facts.kindTable, (kind) => (accept(kind) ? 1 : 0));
}

export interface GraphColumns extends NodeFacts {
  /** Per node: the parent's index; negative when it has none or that node is not in the graph. */
  readonly parents: Int32Array;
  /** Extra edges, nodes in order: the node, EDGE_* and the other end's index (-1 when not in the graph). */
  readonly edgeNode: Int32Array;
  readonly edgeKind: Uint8Array;
  readonly edgeTarget: Int32Array;
  /** The first node with this id, or -1. */
  indexOfId(id: NodeId): number;
}

function edgeCode(kind: string): number {
  return EDGE_CODES[kind as ExtraEdgeKind] ?? EDGE_FORK_OF;
}

/** The columns of a node list; `links` as buildSessionTree takes them (else every id is looked up). */
export function columnsOfNodes(nodes: readonly GraphNode[], links?: NodeLinks, indexById?: ReadonlyMap<NodeId, number>): GraphColumns {
  const facts = factsOfNodes(nodes);
  const count = nodes.length;
  const parents = new Int32Array(count);
  const edgeNode: number[] = [];
  const edgeKind: number[] = [];
  const edgeTarget: number[] = [];
  let index: ReadonlyMap<NodeId, number> | undefined = indexById;
  const lookup = (id: NodeId): number => {
    index ??= firstIndex(nodes);
    return index.get(id) ?? -1;
  };
  let edgeAt = 0;
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!;
    parents[i] = links !== undefined ? links.parents[i]! : node.parentId === null ? -1 : lookup(node.parentId);
    for (const edge of node.extraEdges) {
      edgeNode.push(i);
      edgeKind.push(edgeCode(edge.kind));
      edgeTarget.push(links !== undefined ? links.edgeTargets[edgeAt]! : lookup(edge.nodeId));
      edgeAt++;
    }
  }
  return {
    ...facts,
    parents,
    edgeNode: Int32Array.from(edgeNode),
    edgeKind: Uint8Array.from(edgeKind),
    edgeTarget: Int32Array.from(edgeTarget),
    indexOfId: lookup,
  };
}

const knownFacts = new WeakMap<readonly GraphNode[], NodeFacts>();

/** The facts of a node list (kinds coded, sidechain flags), made once per list. */
export function factsOfNodes(nodes: readonly GraphNode[]): NodeFacts {
  const known = knownFacts.get(nodes);
  if (known !== undefined) return known;
  const count = nodes.length;
  const kindTable: NodeKind[] = [];
  const codes = new Map<NodeKind, number>();
  const kinds = new Uint8Array(count);
  const sidechain = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!;
    let code = codes.get(node.kind);
    if (code === undefined) {
      codes.set(node.kind, (code = kindTable.length));
      kindTable.push(node.kind);
    }
    kinds[i] = code;
    sidechain[i] = node.sidechain ? 1 : 0;
  }
  const facts: NodeFacts = { count, kindTable, kinds, sidechain, idOf: (i) => nodes[i]!.id, timestampOf: (i) => nodes[i]!.timestamp };
  knownFacts.set(nodes, facts);
  return facts;
}

function firstIndex(nodes: readonly GraphNode[]): Map<NodeId, number> {
  const index = new Map<NodeId, number>();
  for (let i = 0; i < nodes.length; i++) if (!index.has(nodes[i]!.id)) index.set(nodes[i]!.id, i);
  return index;
}

/** Where each line of a newline-joined column starts (one more entry at the end, past the last line). */
function lineStarts(text: string, count: number): Int32Array {
  const starts = new Int32Array(count + 1);
  let at = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = at;
    const end = text.indexOf('\n', at);
    at = end < 0 ? text.length + 1 : end + 1;
  }
  starts[count] = text.length + 1;
  return starts;
}

/**
 * The columns of a packed session, read in place: ids and timestamps stay the two joined strings they crossed
 * the worker boundary as, and a line is cut out only when asked for (branch points, fold ids).
 */
export function columnsOfPacked(packed: PackedGraphNodes): GraphColumns {
  const { count } = packed;
  const edgeCount = packed.edgeTargets.length;
  const edgeNode = new Int32Array(edgeCount);
  const edgeKind = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    edgeNode[e] = packed.edges[3 * e] as number;
    edgeKind[e] = edgeCode(packed.edges[3 * e + 1] as string);
  }
  let idStarts: Int32Array | null = null;
  let timeStarts: Int32Array | null = null;
  const ids = packed.ids;
  const times = packed.timestamps;
  const idAt = (starts: Int32Array, i: number): string => ids.slice(starts[i]!, starts[i + 1]! - 1);
  return {
    count,
    kindTable: packed.kindTable,
    kinds: packed.kinds,
    sidechain: packed.sidechain,
    parents: packed.parents,
    edgeNode,
    edgeKind,
    edgeTarget: packed.edgeTargets,
    idOf: (i) => idAt((idStarts ??= lineStarts(ids, count)), i),
    timestampOf(i) {
      const starts = (timeStarts ??= lineStarts(times, count));
      const text = times.slice(starts[i]!, starts[i + 1]! - 1);
      return text === '' ? null : text;
    },
    indexOfId(id) {
      if (count === 0 || id.includes('\n')) return -1;
      const starts = (idStarts ??= lineStarts(ids, count));
      // A whole line equal to the id: found where the text has it between two line ends (or the text's ends).
      for (let at = ids.indexOf(id); at >= 0; at = ids.indexOf(id, at + 1)) {
        const end = at + id.length;
        if ((at === 0 || ids.charCodeAt(at - 1) === 10) && (end === ids.length || ids.charCodeAt(end) === 10)) return lineOf(starts, at);
      }
      return -1;
    },
  };
}

/** The line a character offset is on (binary search over the line starts). */
function lineOf(starts: Int32Array, offset: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
