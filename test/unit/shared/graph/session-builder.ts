/** Builds NodeSummary lists for graph tests: `add(kind, parent, extras)` returns the new node's id. */
import type { ExtraEdge, NodeId, NodeKind, NodeSummary } from '../../../../shared/model';

export interface NodeOptions {
  readonly timestamp?: string | null;
  readonly extraEdges?: readonly ExtraEdge[];
  readonly sidechain?: boolean;
  readonly id?: NodeId;
  readonly label?: string;
}

export class SessionBuilder {
  readonly nodes: NodeSummary[] = [];
  private clock = Date.UTC(2025, 0, 1);

  add(kind: NodeKind, parentId: NodeId | null, options: NodeOptions = {}): NodeId {
    const id = options.id ?? `n${this.nodes.length}`;
    this.clock += 1000;
    this.nodes.push({
      id,
      sessionId: 's1',
      sourceId: id,
      parentSourceId: parentId,
      parentId,
      extraEdges: options.extraEdges ?? [],
      kind,
      timestamp: options.timestamp === undefined ? new Date(this.clock).toISOString() : options.timestamp,
      label: options.label ?? `${kind} ${id}`,
      toolCalls: kind === 'tool_call' ? [{ id: `t-${id}`, name: 'Bash', outcome: 'ok' }] : [],
      sidechain: options.sidechain ?? false,
      agentId: null,
      model: null,
    });
    return id;
  }

  /** A chain of `length` nodes cycling through the given kinds; returns the last id. */
  chain(from: NodeId | null, length: number, kinds: readonly NodeKind[] = ['tool_call', 'tool_result']): NodeId {
    let at = from;
    for (let k = 0; k < length; k++) at = this.add(kinds[k % kinds.length]!, at);
    return at!;
  }
}
