/**
 * `effects.ledger` (issue 15): the side-effect ledger of a session (every branch, in transcript order) or of the
 * branch through a node (the export's walk), computed on demand: the session's light node list is in memory
 * anyway (the graph); the calls are read one stored line at a time, only for nodes that made calls.
 */
import type { ArborApi, CallContext } from '../../shared/contract';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { exportBranch } from '../../shared/export-branch';
import type { NodeId, NodeSummary, SessionGraph, SessionId } from '../../shared/model';
import { ledgerCounts, type SideEffectLedger } from '../../shared/side-effect-ledger';
import type { SessionStore } from '../db/session-store';
import { importerFor } from '../importers/registry';
import { claudeStepCalls, isLocalTool, ledgerBuilder, stepParents, type LedgerCall } from '../snapshots/side-effects';

export interface LedgerMethodParts {
  readonly graph: (request: { sessionId: SessionId }, context?: CallContext) => Promise<SessionGraph>;
  readonly store: SessionStore;
}

/** Nodes between abort checks. */
const CHECK_EVERY = 256;

export function createLedgerMethods(parts: LedgerMethodParts): Pick<ArborApi, 'effects.ledger'> {
  return {
    'effects.ledger': async ({ target, since }, context) => sessionLedger(parts, target, since ?? null, context?.signal),
  };
}

export async function sessionLedger(parts: LedgerMethodParts, target: string, since: NodeId | null, signal?: AbortSignal): Promise<SideEffectLedger> {
  const { store } = parts;
  let sessionId: SessionId;
  let through: NodeId | null = null;
  if (store.getSession(target) !== null) sessionId = target;
  else {
    const node = store.getNode(target);
    if (node === null) throw new ArborError('NOT_FOUND', `No session or node ${target}`, { target });
    sessionId = node.summary.sessionId;
    through = target;
  }
  const graph = await parts.graph({ sessionId }, { ...(signal ? { signal } : {}) });
  const walk: readonly NodeSummary[] = through === null ? graph.nodes : exportBranch(graph.nodes, graph.workspaceNodes ?? [], through).steps.map((step) => step.node);
  const builder = ledgerBuilder({ cwd: graph.session.project, parentOf: stepParents(graph.nodes), through, since });
  let visited = 0;
  for (const node of walk) {
    // Every step passes by (the builder marks where the node asked for and `since` are); only the lines of
    // calls that may reach outside are read (most are reads and edits: a 50k-node session reads a fraction).
    if (node.toolCalls.every((ref) => isLocalTool(ref.name))) {
      builder.add({ nodeId: node.id, timestamp: node.timestamp, file: null, calls: [] });
      continue;
    }
    if (++visited % CHECK_EVERY === 0) throwIfAborted(signal);
    const stored = store.getNode(node.id);
    const line = stored === null || stored.rawBytes > stored.raw.length ? null : stored.raw.toString('utf8');
    const read = (stored === null ? null : importerFor(stored.format)?.readCalls) ?? claudeStepCalls;
    const calls = read(line);
    builder.add({
      nodeId: node.id,
      timestamp: node.timestamp,
      file: stored?.file ?? null,
      calls: node.toolCalls.map((ref): LedgerCall => {
        const call = calls.get(ref.id);
        return { id: ref.id, name: ref.name, input: call?.input, command: call?.command ?? null, outcome: ref.outcome };
      }),
    });
  }
  throwIfAborted(signal);
  const entries = builder.entries();
  return { sessionId, through, entries, ...ledgerCounts(entries) };
}
