/**
 * The sandboxed preload: exposes `window.arbor` (shared/bridge.ts), one named function per contract method.
 * Bundled into a single CommonJS file that requires only 'electron' (scripts/check-preload.cjs checks).
 * Never hands ipcRenderer or its events to the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ArborBridge } from '../shared/bridge';
import { BRIDGE_GLOBAL } from '../shared/bridge';
import { IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, METHOD_NAMES, ipcChannel, type ArborEvents, type EventName, type MethodName } from '../shared/contract';
import type { Envelope } from '../shared/wire';

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: unknown, message: unknown) => {
  if (typeof message !== 'object' || message === null) return;
  const { event, payload } = message as { event?: unknown; payload?: unknown };
  if (typeof event !== 'string') return;
  for (const listener of listeners.get(event) ?? []) {
    try {
      listener(payload);
    } catch {
      // One failing listener must not stop the others.
    }
  }
});

const invoke = Object.fromEntries(
  METHOD_NAMES.map((method: MethodName) => [
    method,
    (request: unknown, callId: number): Promise<Envelope<unknown>> => ipcRenderer.invoke(ipcChannel(method), request, callId) as Promise<Envelope<unknown>>,
  ]),
) as unknown as ArborBridge['invoke'];

const bridge: ArborBridge = {
  invoke,
  cancel(callId: number): void {
    ipcRenderer.send(IPC_CANCEL_CHANNEL, callId);
  },
  on<E extends EventName>(event: E, listener: (payload: ArborEvents[E]) => void): () => void {
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set);
    const entry = listener as Listener;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  },
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
