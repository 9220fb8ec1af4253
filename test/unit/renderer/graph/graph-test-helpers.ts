/** What the graph view tests share: a session graph around built nodes, and the camera read back from the DOM. */
import type { NodeSummary, SessionGraph } from '../../../../shared/model';

export function sessionGraphOf(nodes: NodeSummary[], fileCount = 1): SessionGraph {
  return {
    session: { id: 's1', source: 'claude-code', title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: nodes.length, fileCount, branchCount: 0 },
    nodes,
  };
}

/** React Flow's camera, read back from the DOM. */
export function zoomOf(container: HTMLElement): number {
  const transform = container.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '';
  return Number(/scale\(([\d.]+)\)/.exec(transform)?.[1] ?? NaN);
}
