/** How hosts (Electron main, `arbor serve`, the CLI) build and hold the service. */
import type { ArborApi, EventSource } from '../../shared/contract';
import type { HookListener } from '../hooks/hook-listener';
import type { LiveTail, LiveTailOptions } from './live-tail';

export interface ArborServiceOptions {
  /** Arbor's data folder: the SQLite store and (later) the snapshot object store live here. */
  readonly dataDir: string;
  readonly host: 'electron' | 'web' | 'cli';
  readonly version: string;
  /** Injected so tests never read the real home folder or environment. */
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Injected clock for anything time-stamped. */
  readonly now?: () => Date;
}

export interface ArborService {
  readonly api: ArborApi;
  readonly events: EventSource;
  /** Waits for background work (full-text indexing) to settle; used by tests and the CLI before exit. */
  idle(): Promise<void>;
  /**
   * Imports transcripts as they grow (live-tail.ts): the default locations and the folders already imported,
   * or `folders`. Each import emits `sessions.changed`. Stopped by `stop()`, its signal, or `close()`.
   */
  tail(options?: LiveTailOptions & { readonly folders?: readonly string[] }): LiveTail;
  /**
   * Takes hook captures from `arbor snapshot --hook` on the data folder's hook socket (hook-socket.ts) until
   * `close()`: hosts that stay up (the app, `arbor serve`, `arbor watch`) call it. `path` is null when another
   * host already takes them.
   */
  listenForHooks(): Promise<HookListener>;
  close(): Promise<void>;
}
