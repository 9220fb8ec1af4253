/**
 * `effects.ledger` (issue 15): the side-effect ledger of a session (every branch, in transcript order) or of the
 * branch through a node (the export's walk), computed on demand; the calls are read one stored line at a time,
 * only for nodes that made calls. A session's ledger reads its graph a page at a time (twice: the steps' parents
 * first, then the steps), so what it holds is a parent per node, not the graph: built whole, a 1 GB session's
 * graph was every node decoded beside its compact form. The branch through a node still walks the whole graph
 * (the export's walk needs its display tree).
 */
import type { ArborApi, CallContext } from '../../shared/contract';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { exportBranch } from '../../shared/export-branch';
import type { NodeId, NodeSummary, SessionGraph, SessionId, SessionSummary } from '../../shared/model';
import { ledgerCounts, type SideEffectLedger } from '../../shared/side-effect-ledger';
import type { SessionStore } from '../db/session-store';
import { importerFor } from '../importers/registry';
import { claudeStepCalls, isLocalTool, ledgerBuilder, stepParents, type LedgerBuilder, type LedgerCall } from '../snapshots/side-effects';
import { GraphChangedError, type GraphInPages } from './session-graphs';

export interface LedgerMethodParts {
  readonly graph: (request: { sessionId: SessionId }, context?: CallContext) => Promise<SessionGraph>;
  /** The session's graph a page at a time; without it the ledger reads the whole graph. */
  readonly inPages?: (sessionId: SessionId, signal?: AbortSignal) => Promise<GraphInPages>;
  readonly store: SessionStore;
}

/** Reads of a session's graph in pages that changed under them, before the whole graph is read instead. */
const PAGED_READS = 3;

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
  if (through === null && parts.inPages !== undefined) {
    for (let attempt = 0; attempt < PAGED_READS; attempt++) {
      try {
        return await pagedLedger(store, await parts.inPages(sessionId, signal), since, signal);
      } catch (error) {
        if (!(error instanceof GraphChangedError)) throw error;
      }
    }
  }
  const graph = await parts.graph({ sessionId }, { ...(signal ? { signal } : {}) });
  const walk: readonly NodeSummary[] = through === null ? graph.nodes : exportBranch(graph.nodes, graph.workspaceNodes ?? [], through).steps.map((step) => step.node);
  const builder = ledgerBuilder({ cwd: graph.session.project, parentOf: stepParents(graph.nodes), through, since });
  const steps = stepAdder(store, builder, signal);
  for (const node of walk) steps.add(node);
  return finished(graph.session, builder, through, signal);
}

/** The session's ledger from its graph's pages: the parents in one pass, the steps in a second. */
async function pagedLedger(store: SessionStore, graph: GraphInPages, since: NodeId | null, signal?: AbortSignal): Promise<SideEffectLedger> {
  const parents = new Map<NodeId, NodeId | null>();
  for await (const page of graph.nodes(signal)) {
    const parentOf = stepParents(page);
    for (const node of page) parents.set(node.id, parentOf(node.id));
  }
  const builder = ledgerBuilder({ cwd: graph.session.project, parentOf: (nodeId) => parents.get(nodeId) ?? null, through: null, since });
  const steps = stepAdder(store, builder, signal);
  for await (const page of graph.nodes(signal)) for (const node of page) steps.add(node);
  return finished(graph.session, builder, null, signal);
}

function finished(session: SessionSummary, builder: LedgerBuilder, through: NodeId | null, signal?: AbortSignal): SideEffectLedger {
  throwIfAborted(signal);
  const entries = builder.entries();
  return { sessionId: session.id, through, entries, ...ledgerCounts(entries) };
}

/** Each step passed to the builder, with its calls read from its stored line when one may reach outside. */
function stepAdder(store: SessionStore, builder: LedgerBuilder, signal?: AbortSignal): { add(node: NodeSummary): void } {
  let visited = 0;
  return {
    add(node) {
      // Every step passes by (the builder marks where the node asked for and `since` are); only the lines of
      // calls that may reach outside are read (most are reads and edits: a 50k-node session reads a fraction).
      if (node.toolCalls.every((ref) => isLocalTool(ref.name))) {
        builder.add({ nodeId: node.id, timestamp: node.timestamp, file: null, calls: [] });
        return;
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
    },
  };
}
