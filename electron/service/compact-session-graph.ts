/**
 * A stored session's whole graph held in its compact form (shared/session-graph-wire.ts), built straight from
 * its stored chunks: what `sessions.graph` sends is that form, so it is never decoded into node objects for the
 * transport. Decoded, an 86k-node graph was ~52 MB of NodeSummary objects held beside its encoded copy and the
 * encoded copy's text (the serving process 140 → 357 MB to answer it, 318 MB after); the compact form is the
 * parsed columns of the chunks. The nodes are decoded when a caller in the process reads them (the export, the
 * ledger, states) and kept only while that caller holds them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StoredGraphs } from '../db/session-graph-store';
import { throwIfAborted } from '../../shared/errors';
import type { NodeSummary, SessionGraph, SessionSummary } from '../../shared/model';
import { createSessionGraphAssembler, type SessionGraphChunk } from '../../shared/session-graph-chunks';
import { decodeSessionGraph, rememberEncodedGraph, type EncodedSessionGraph } from '../../shared/session-graph-wire';

export interface CompactSessionGraph {
  readonly graph: SessionGraph;
  /** The stored chunks' text length: what the estimate of the held size starts from. */
  readonly textBytes: number;
}

/** Reads of a stored graph that changed between two of its segments, before the rows answer instead. */
const READS = 3;

/**
 * The session's graph from its stored chunks, read and parsed one segment at a time (the event loop given back
 * between them: all of a 1 GB session's texts at once were ~46 MB of strings beside as many bytes of rows);
 * null when the store has no whole stored graph for it, or it kept changing under the reads (read the rows).
 */
export async function readCompactSessionGraph(
  stored: StoredGraphs,
  session: SessionSummary,
  signal?: AbortSignal,
): Promise<CompactSessionGraph | null> {
  for (let attempt = 0; attempt < READS; attempt++) {
    const state = await stored.ensure(session.id, signal);
    if (state === null) return null;
    const assembler = createSessionGraphAssembler(session);
    let textBytes = 0;
    let k = 0;
    for (; k < state.segments; k++) {
      if (k > 0) {
        await nextTurn();
        throwIfAborted(signal);
      }
      const segment = stored.segment(session.id, k);
      // Another version: an import or a link wrote the session's segments between two reads.
      if (segment === null || segment.version !== state.version) break;
      textBytes += segment.text.length;
      assembler.add(JSON.parse(segment.text) as SessionGraphChunk);
    }
    if (k === state.segments) return { graph: lazyNodesGraph(assembler.finish()), textBytes };
  }
  return null;
}

/**
 * A SessionGraph over its compact form: `nodes` decodes on first read and stays decoded while anyone holds that
 * array (a WeakRef), so two reads close together see the same array and a graph only sent is never decoded.
 */
export function lazyNodesGraph(encoded: EncodedSessionGraph): SessionGraph {
  let held: WeakRef<readonly NodeSummary[]> | null = null;
  // Keys in the order a graph built whole has them (session, nodes, workspaceNodes): printed, it reads the same.
  const graph: SessionGraph = {
    session: encoded.session,
    get nodes(): readonly NodeSummary[] {
      let nodes = held?.deref();
      if (nodes === undefined) {
        nodes = decodeSessionGraph(encoded).nodes;
        held = new WeakRef(nodes);
      }
      return nodes;
    },
    ...(encoded.workspaceNodes === undefined ? {} : { workspaceNodes: encoded.workspaceNodes }),
  };
  rememberEncodedGraph(graph, encoded);
  return graph;
}
