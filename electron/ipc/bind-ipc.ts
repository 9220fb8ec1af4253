/**
 * Binds the service to Electron IPC: one `arbor:<method>` channel per contract method, plus cancel and events.
 * No 'electron' import: main.ts passes ipcMain in, tests pass a fake. The renderer is untrusted, so every
 * call checks which frame sent it and validates the payload (dispatch) before the service sees it.
 */
import { EVENT_NAMES, IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, METHOD_NAMES, ipcChannel, type ArborApi, type ArborEvents, type EventName, type EventSource } from '../../shared/contract';
import { ArborError, CancelledError } from '../../shared/errors';
import type { Envelope } from '../../shared/wire';
import { createCallSlots, GRAPH_PAGES_UNSENT, type CallSlots } from '../host/call-slots';
import { dispatch, forTransport } from '../host/dispatch';

/** The parts of an IPC event main reads: who sent it. */
export interface IpcSenderEvent {
  readonly sender: { readonly id: number };
  /** Null when the frame has navigated away or been destroyed. */
  readonly senderFrame: { readonly url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => Promise<unknown>): void;
  on(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => void): unknown;
  removeHandler(channel: string): void;
  removeListener(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => void): unknown;
}

export interface BindIpcOptions {
  readonly ipcMain: IpcMainLike;
  readonly api: ArborApi;
  /** True only for our own renderer's URL: other frames (a navigated page, an iframe) get UNAUTHORIZED. */
  readonly senderAllowed: (frameUrl: string) => boolean;
}

/** What the event channel carries; the preload dispatches it by name. */
export interface IpcEventMessage<E extends EventName = EventName> {
  readonly event: E;
  readonly payload: ArborEvents[E];
}

/** Registers every method channel and the cancel channel; the returned disposer removes them all. */
export function bindIpc(options: BindIpcOptions): () => void {
  const { ipcMain, api, senderAllowed } = options;
  // Call ids are chosen by each renderer, so they are only unique per sender.
  const running = new Map<string, AbortController>();
  const key = (event: IpcSenderEvent, callId: unknown): string => `${event.sender.id}:${String(callId)}`;
  // Graph pages per renderer, as the web host has them per socket (call-slots.ts): Electron copies an answer out
  // when the handler returns, so the next page is read only then.
  const pageSlots = new Map<number, CallSlots>();
  const slotsOf = (event: IpcSenderEvent): CallSlots => {
    let slots = pageSlots.get(event.sender.id);
    if (slots === undefined) pageSlots.set(event.sender.id, (slots = createCallSlots(GRAPH_PAGES_UNSENT)));
    return slots;
  };

  for (const method of METHOD_NAMES) {
    ipcMain.handle(ipcChannel(method), async (event, request, callId): Promise<Envelope<unknown>> => {
      if (!fromAllowedFrame(event, senderAllowed)) {
        return { ok: false, error: new ArborError('UNAUTHORIZED', 'this frame may not call Arbor').toJSON() };
      }
      const controller = new AbortController();
      const id = validCallId(callId) ? key(event, callId) : undefined;
      if (id !== undefined) running.set(id, controller);
      const release = method === 'sessions.graphPage' ? await slotsOf(event).acquire(controller.signal) : undefined;
      try {
        if (release === null) return { ok: false, error: new CancelledError().toJSON() };
        const envelope = await dispatch(api, method, request, controller.signal);
        return envelope.ok ? { ok: true, result: forTransport(method, envelope.result) } : envelope;
      } finally {
        release?.();
        if (id !== undefined && running.get(id) === controller) running.delete(id);
      }
    });
  }

  const onCancel = (event: IpcSenderEvent, callId: unknown): void => {
    if (!fromAllowedFrame(event, senderAllowed) || !validCallId(callId)) return;
    running.get(key(event, callId))?.abort();
  };
  ipcMain.on(IPC_CANCEL_CHANNEL, onCancel);

  return () => {
    for (const method of METHOD_NAMES) ipcMain.removeHandler(ipcChannel(method));
    ipcMain.removeListener(IPC_CANCEL_CHANNEL, onCancel as (event: IpcSenderEvent, ...args: unknown[]) => void);
    for (const controller of running.values()) controller.abort();
    running.clear();
    pageSlots.clear();
  };
}

/** Sends every service event to the window(s) `send` reaches; returns the disposer. */
export function forwardEvents(events: EventSource, send: (channel: string, message: IpcEventMessage) => void): () => void {
  const disposers = EVENT_NAMES.map((event) => events.on(event, (payload) => send(IPC_EVENT_CHANNEL, { event, payload })));
  return () => {
    for (const dispose of disposers) dispose();
  };
}

function fromAllowedFrame(event: IpcSenderEvent, senderAllowed: (url: string) => boolean): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && senderAllowed(url);
}

function validCallId(callId: unknown): callId is number {
  return typeof callId === 'number' && Number.isSafeInteger(callId) && callId >= 0;
}
