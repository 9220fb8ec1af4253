/**
 * One WebSocket client of `arbor serve`, independent of the socket library: it parses and checks each
 * message (shared/wire.ts), runs calls with their own AbortController, and answers with `res` messages.
 * A message that cannot even be answered (not JSON, no call id) is a protocol violation: the socket closes.
 */
import type { ArborApi } from '../../shared/contract';
import { CancelledError } from '../../shared/errors';
import type { Envelope, ServerMessage } from '../../shared/wire';
import { createCallSlots, GRAPH_PAGES_UNSENT } from './call-slots';
import { dispatch, forTransport } from './dispatch';

/** Generous for any request the contract allows (1000 paths of a few hundred bytes), small enough to refuse floods. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** A client keeps only this many calls running; more is a bug or an attack. */
export const MAX_CALLS_IN_FLIGHT = 64;

export interface ProtocolViolation {
  /** WebSocket close code: 1007 invalid payload, 1008 policy violation, 1009 too big. */
  readonly code: 1007 | 1008 | 1009;
  readonly reason: string;
}

export interface SocketSession {
  /** Handles one text frame; returns a violation when the socket must be closed. */
  receive(data: string): ProtocolViolation | undefined;
  /** The socket closed: abort every call still running. */
  dispose(): void;
  readonly callsInFlight: number;
}

/**
 * Sends one message; the promise, when given, settles once the message has left the process (written to the
 * socket), which is when the next graph page may be produced.
 */
export type SendMessage = (message: ServerMessage) => Promise<void> | void;

export function createSocketSession(api: ArborApi, send: SendMessage): SocketSession {
  const calls = new Map<number, AbortController>();
  // A renderer asked all 23 pages of a 1 GB session at once: all were read and queued on the socket together (+160 MB).
  const pageSlots = createCallSlots(GRAPH_PAGES_UNSENT);
  let disposed = false;

  function receive(data: string): ProtocolViolation | undefined {
    if (Buffer.byteLength(data, 'utf8') > MAX_MESSAGE_BYTES) return { code: 1009, reason: 'message too big' };
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return { code: 1007, reason: 'message is not JSON' };
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return { code: 1007, reason: 'message is not an object' };
    const { t, id } = message as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { code: 1007, reason: 'message has no valid id' };
    if (t === 'cancel') {
      calls.get(id)?.abort();
      return undefined;
    }
    if (t !== 'req') return { code: 1007, reason: 'unknown message type' };
    const { method, params } = message as Record<string, unknown>;
    if (calls.has(id)) {
      send({ t: 'res', id, ok: false, error: { code: 'BAD_REQUEST', message: `call id ${id} is already in use` } });
      return undefined;
    }
    if (calls.size >= MAX_CALLS_IN_FLIGHT) return { code: 1008, reason: 'too many calls in flight' };
    const controller = new AbortController();
    calls.set(id, controller);
    void answer(id, method, params, controller.signal);
    return undefined;
  }

  async function answer(id: number, method: unknown, params: unknown, signal: AbortSignal): Promise<void> {
    const release = method === 'sessions.graphPage' ? await pageSlots.acquire(signal) : undefined;
    const envelope: Envelope<unknown> = release === null ? { ok: false, error: new CancelledError().toJSON() } : await dispatch(api, method, params, signal);
    calls.delete(id);
    const sent = disposed ? undefined : send(envelope.ok ? { t: 'res', id, ok: true, result: forTransport(method, envelope.result) } : { t: 'res', id, ok: false, error: envelope.error });
    if (release === undefined || release === null) return;
    if (sent === undefined) release();
    else sent.then(release, release);
  }

  function dispose(): void {
    disposed = true;
    for (const controller of calls.values()) controller.abort();
    calls.clear();
  }

  return {
    receive,
    dispose,
    get callsInFlight() {
      return calls.size;
    },
  };
}
