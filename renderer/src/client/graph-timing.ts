/**
 * Performance marks along a session graph's way to the screen: request sent, response received (before
 * JSON.parse), decoded, stored, posted to the layout worker (nodes packed), laid out (the worker answered). `npm run bench:graph` reads them to print where the time to a first graph
 * goes; DevTools shows them too. Each mark replaces its previous one, so they never pile up.
 */
/**
 * A big session's start is shown before the rest has arrived (session-graph-pages.ts): 'received' and
 * 'decoded' mark its first page then, 'rest-received' and 'rest-decoded' the whole graph.
 */
export type GraphStage = 'sent' | 'received' | 'decoded' | 'stored' | 'posted' | 'laid-out' | 'rest-received' | 'rest-decoded';

export const GRAPH_MARK_PREFIX = 'arbor:graph:';

export function markGraphStage(stage: GraphStage, startTime?: number): void {
  const perf = globalThis.performance as Performance | undefined;
  if (typeof perf?.mark !== 'function') return;
  const name = `${GRAPH_MARK_PREFIX}${stage}`;
  perf.clearMarks?.(name);
  perf.mark(name, startTime === undefined ? undefined : { startTime });
}

/** The clock the marks use, for a stage that is only known to be one after the fact. */
export function timingNow(): number {
  return typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : 0;
}
