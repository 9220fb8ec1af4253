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
  /** This process as another one waiting for its import reads it ("arbor serve"); default from `host`. */
  readonly name?: string;
  /** Told when an import waits for another process's import on the same data folder (the CLI prints it). */
  readonly onWaitForWriter?: (message: string) => void;
  /**
   * Whether the data folder can be written; default an access check of the folder and the store file. A
   * read-only folder opens the store read-only: reads work, every write is refused with READ_ONLY.
   */
  readonly canWrite?: (dataDir: string, storeFile: string) => Promise<boolean>;
}

export interface ArborService {
  readonly api: ArborApi;
  readonly events: EventSource;
  /** Waits for background work (full-text indexing) to settle; used by tests and the CLI before exit. */
  idle(): Promise<void>;
  /**
   * Imports transcripts as they grow (live-tail.ts): the default locations and the folders already imported,
   * or `folders`. Each import emits `sessions.changed`. Stopped by `stop()`, its signal, or `close()`.
   * On a read-only data folder it watches nothing.
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
