/**
 * Validates an untrusted request and calls the service: the one path every transport (WebSocket, Electron
 * IPC) takes, so a payload is checked the same way whichever door it came through.
 */
import { isMethodName, requestValidators, type ArborApi, type CallContext, type MethodName } from '../../shared/contract';
import { ArborError, CancelledError, toErrorData } from '../../shared/errors';
import type { SessionGraph } from '../../shared/model';
import { encodeSessionGraph, rememberedEncodedGraph } from '../../shared/session-graph-wire';
import type { Envelope } from '../../shared/wire';

type AnyMethod = (request: unknown, context?: CallContext) => Promise<unknown>;

/** Never throws: every outcome, including a bad method name or payload, comes back as an Envelope. */
export async function dispatch(api: ArborApi, method: unknown, params: unknown, signal: AbortSignal): Promise<Envelope<unknown>> {
  try {
    if (!isMethodName(method)) throw new ArborError('BAD_REQUEST', `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`);
    const request = requestValidators[method](params === undefined ? {} : params, 'params');
    const result = await callMethod(api, method, request, signal);
    // A caller that cancelled has stopped waiting for a result; tell it plainly that the call was cancelled.
    if (signal.aborted) throw new CancelledError();
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: signal.aborted ? new CancelledError().toJSON() : toErrorData(error) };
  }
}

function callMethod(api: ArborApi, method: MethodName, request: unknown, signal: AbortSignal): Promise<unknown> {
  const fn = api[method] as AnyMethod;
  return fn.call(api, request, { signal });
}

/**
 * A session graph travels in its compact form (shared/session-graph-wire.ts) over both transports (WebSocket
 * and Electron IPC); the renderer's client decodes it, so callers still see a SessionGraph.
 */
export function forTransport(method: unknown, result: unknown): unknown {
  // A page that carries the whole graph (a linked session's nodes joined the stored ones) sends it the same way.
  if (method === 'sessions.graphPage' && typeof result === 'object' && result !== null && 'graph' in result) {
    const page = result as { graph?: unknown };
    return page.graph === undefined ? result : { ...page, graph: forTransport('sessions.graph', page.graph) };
  }
  if (method !== 'sessions.graph' || typeof result !== 'object' || result === null) return result;
  // The service hands out the same graph object until the session changes: encode each version once.
  const known = encodedGraphs.get(result) ?? rememberedEncodedGraph(result as SessionGraph);
  if (known !== undefined) return known;
  let encoded: unknown;
  try {
    encoded = encodeSessionGraph(result as SessionGraph) ?? result;
  } catch {
    encoded = result; // Not the shape the codec knows: the plain form still answers the call.
  }
  encodedGraphs.set(result, encoded);
  return encoded;
}

const encodedGraphs = new WeakMap<object, unknown>();
