/**
 * What the Electron preload exposes as `window.arbor`: one named function per contract method (each on its
 * own `arbor:<method>` channel), cancellation by call id, and event subscription. Not a tunnel: the preload
 * builds `invoke` from METHOD_NAMES only and never exposes ipcRenderer.
 */
import type { ArborEvents, EventName, MethodName, RequestOf, ResultOf } from './contract';
import type { Envelope } from './wire';

export interface ArborBridge {
  readonly invoke: { readonly [M in MethodName]: (request: RequestOf<M>, callId: number) => Promise<Envelope<ResultOf<M>>> };
  cancel(callId: number): void;
  on<E extends EventName>(event: E, listener: (payload: ArborEvents[E]) => void): () => void;
}

export const BRIDGE_GLOBAL = 'arbor';
