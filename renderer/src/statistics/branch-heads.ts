/**
 * The branches below a branch point, each as its head: from each child of the point, down the newest child at
 * every step to a leaf (the attempt as it ended). Pure, for the branch tooltip's costs.
 */
import type { NodeSummary } from '../../../shared/model';

export interface BranchHead {
  /** The branch's first node (a child of the branch point). */
  readonly startId: string;
  readonly headId: string;
}

export function branchHeads(nodes: readonly NodeSummary[], pointId: string): BranchHead[] {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const list = children.get(node.parentId);
    if (list === undefined) children.set(node.parentId, [node.id]);
    else list.push(node.id);
  }
  return (children.get(pointId) ?? []).map((startId) => {
    let headId = startId;
    const seen = new Set<string>([pointId]);
    for (;;) {
      seen.add(headId);
      const next = children.get(headId)?.at(-1);
      if (next === undefined || seen.has(next)) break;
      headId = next;
    }
    return { startId, headId };
  });
}
