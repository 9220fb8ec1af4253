/**
 * `nodes.details`: many nodes' details in one call, for the conversation view, which reads a branch a
 * screenful at a time. A node that no longer exists is listed in `missing` instead of failing the batch
 * (a refresh may race a delete); any other error still fails the call.
 */
import { ArborError, CancelledError } from '../../shared/errors';
import type { NodeDetail, NodeId } from '../../shared/model';

export function getNodeDetails(
  nodeIds: readonly NodeId[],
  getOne: (nodeId: NodeId) => NodeDetail,
  signal?: AbortSignal,
): { details: NodeDetail[]; missing: NodeId[] } {
  const details: NodeDetail[] = [];
  const missing: NodeId[] = [];
  const seen = new Set<NodeId>();
  for (const nodeId of nodeIds) {
    if (signal?.aborted) throw new CancelledError();
    if (seen.has(nodeId)) continue;
    seen.add(nodeId);
    try {
      details.push(getOne(nodeId));
    } catch (error) {
      if (error instanceof ArborError && error.code === 'NOT_FOUND') missing.push(nodeId);
      else throw error;
    }
  }
  return { details, missing };
}
