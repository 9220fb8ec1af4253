/** Messages on the `arbor serve` WebSocket. One request/response pair per call, events pushed. */
import type { ArborErrorData } from './errors';
import type { ArborEvents, EventName, MethodName } from './contract';

export type ClientMessage =
  | { readonly t: 'req'; readonly id: number; readonly method: MethodName; readonly params: unknown }
  | { readonly t: 'cancel'; readonly id: number };

export type ServerMessage =
  | { readonly t: 'res'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly t: 'res'; readonly id: number; readonly ok: false; readonly error: ArborErrorData }
  | { readonly t: 'evt'; readonly event: EventName; readonly payload: ArborEvents[EventName] };

/** Query parameter carrying the per-launch token on the page URL and the WebSocket URL. */
export const TOKEN_PARAM = 'token';
export const WS_PATH = '/ws';

/** How a result crosses Electron IPC: ipcMain.handle would drop an error's code, so errors travel as data. */
export type Envelope<T> = { readonly ok: true; readonly result: T } | { readonly ok: false; readonly error: ArborErrorData };
