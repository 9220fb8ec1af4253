/**
 * How each node of a reconstructed session is known, as a read-only map over the reconstruction's own per-node
 * marks: a Map of every node (370k entries on a 1 GB session) was built for each `sessions.states` only to be
 * copied into its answer, one more structure of every node at the moment the answer is made.
 */
import type { NodeId } from '../../../shared/model';

export class KnownByNode<V extends string> implements ReadonlyMap<NodeId, V> {
  constructor(
    /** The session's nodes in transcript order. */
    private readonly nodes: readonly { readonly id: NodeId }[],
    private readonly index: ReadonlyMap<NodeId, number>,
    private readonly knownAt: (i: number) => V,
  ) {}

  get size(): number {
    return this.nodes.length;
  }

  get(nodeId: NodeId): V | undefined {
    const i = this.index.get(nodeId);
    return i === undefined ? undefined : this.knownAt(i);
  }

  has(nodeId: NodeId): boolean {
    return this.index.has(nodeId);
  }

  forEach(callback: (value: V, key: NodeId, map: ReadonlyMap<NodeId, V>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.nodes.length; i++) callback.call(thisArg, this.knownAt(i), this.nodes[i]!.id, this);
  }

  *entries(): MapIterator<[NodeId, V]> {
    for (let i = 0; i < this.nodes.length; i++) yield [this.nodes[i]!.id, this.knownAt(i)];
  }

  *keys(): MapIterator<NodeId> {
    for (const node of this.nodes) yield node.id;
  }

  *values(): MapIterator<V> {
    for (let i = 0; i < this.nodes.length; i++) yield this.knownAt(i);
  }

  [Symbol.iterator](): MapIterator<[NodeId, V]> {
    return this.entries();
  }

  /** This map with some nodes' values replaced (a few hook-captured nodes over a whole session), without a copy. */
  with<W extends string>(over: ReadonlyMap<NodeId, W>): KnownByNode<V | W> {
    if (over.size === 0) return this;
    const { nodes, knownAt } = this;
    return new KnownByNode<V | W>(nodes, this.index, (i) => over.get(nodes[i]!.id) ?? knownAt(i));
  }
}
