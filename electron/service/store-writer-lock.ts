/**
 * The store's writer turn across processes: two `arbor import` runs, or one beside the app or `arbor serve`,
 * import one after the other instead of failing with "database is locked". An import holds the turn from its
 * discovery to its last link; the next one waits, saying who it waits for. Arbor's own workspace writes (fork,
 * merge, rewind, undo, snapshot, fork removal: workspace-context.ts `writes`) take it too, one write at a
 * time (issue 13: they relied on SQLite's 30 s busy timeout alone, so a fork beside a long import could meet
 * "database is locked"). Only the full-text indexer's chunks do not: it pauses while another process holds it.
 *
 * The turn is a lock file in the data folder (`locks/store-writer.lock`, created with O_EXCL) naming its
 * holder: pid, the process's start time (so a reused pid is not mistaken for the holder) and what it is.
 * A lock whose holder is gone is broken; a live holder is waited for however long it imports.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError } from '../../shared/errors';

export interface WriterLockHolder {
  readonly pid: number;
  /** The process's start time as the OS counts it (Linux: clock ticks since boot), null where unknown. */
  readonly started: string | null;
  /** What it is, for the waiting process's message: "arbor serve", "arbor import", "the Arbor app". */
  readonly name: string;
  /** What it holds the turn for: "import" (the default, and what older holders meant), "workspace write". */
  readonly doing?: string;
}

/** How the lock tells a live holder from a dead one: injected so tests can fake a holder that died. */
export interface ProcessProbe {
  /** False when no process has this pid. */
  isAlive(pid: number): boolean;
  /** The start time of the process with this pid (as `WriterLockHolder.started`), null where unknown. */
  startedOf(pid: number): string | null;
}

export interface StoreWriterLockOptions {
  readonly dataDir: string;
  /** This process, as others waiting for it read it. */
  readonly name: string;
  /** Told once per holder waited for (the CLI prints it on stderr). */
  readonly onWait?: (holder: WriterLockHolder) => void;
  readonly retryMs?: number;
  readonly probe?: ProcessProbe;
  readonly pid?: number;
}

export interface StoreWriterLock {
  /** Runs `work` holding the writer turn; waits (cancellable) while another live process holds it. */
  withTurn<T>(signal: AbortSignal, work: () => Promise<T>, doing?: string): Promise<T>;
  /** Another live process holds the turn right now (cheap and synchronous: the indexer asks between chunks). */
  heldElsewhere(): boolean;
}

export const WRITER_LOCK_FILE = 'store-writer.lock';
const RETRY_MS = 50;
/** A lock file still empty this long after it was seen empty belongs to a process that died creating it. */
const EMPTY_GRACE_MS = 5_000;

export function createStoreWriterLock(options: StoreWriterLockOptions): StoreWriterLock {
  const dir = join(options.dataDir, 'locks');
  const file = join(dir, WRITER_LOCK_FILE);
  const probe = options.probe ?? realProbe;
  const pid = options.pid ?? process.pid;
  const me: WriterLockHolder = { pid, started: probe.startedOf(pid), name: options.name };
  const retryMs = options.retryMs ?? RETRY_MS;

  /** The holder named in the lock file: null when there is none, 'empty' while its holder is still writing it. */
  const parse = (text: string): WriterLockHolder | 'empty' | null => {
    if (text.trim() === '') return 'empty';
    try {
      const value = JSON.parse(text) as Partial<WriterLockHolder>;
      if (typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0) {
        const doing = typeof value.doing === 'string' ? value.doing : 'import';
        return { pid: value.pid, started: typeof value.started === 'string' ? value.started : null, name: String(value.name ?? 'another Arbor'), doing };
      }
    } catch {
      // Unreadable: written by something else; treated like a holder that died.
    }
    return null;
  };
  const alive = (holder: WriterLockHolder): boolean => {
    if (!probe.isAlive(holder.pid)) return false;
    const started = probe.startedOf(holder.pid);
    return holder.started === null || started === null || started === holder.started;
  };

  async function take(signal: AbortSignal, mine: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    let waitedFor: string | null = null;
    let emptySince: number | null = null;
    for (;;) {
      if (signal.aborted) throw new CancelledError();
      try {
        const handle = await open(file, 'wx');
        try {
          await handle.writeFile(mine);
        } finally {
          await handle.close();
        }
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue; // released meanwhile: try again at once
      const holder = parse(text);
      if (holder === 'empty') {
        emptySince ??= Date.now();
        if (Date.now() - emptySince < EMPTY_GRACE_MS) {
          await sleep(retryMs, signal);
          continue;
        }
      }
      emptySince = null;
      if (holder === null || holder === 'empty' || !alive(holder)) {
        await removeIfStill(file, text);
        continue;
      }
      const key = `${holder.pid}:${holder.started ?? ''}`;
      if (key !== waitedFor) {
        waitedFor = key;
        options.onWait?.(holder);
      }
      await sleep(retryMs, signal);
    }
  }

  return {
    async withTurn(signal, work, doing = 'import') {
      const mine = JSON.stringify({ ...me, doing });
      await take(signal, mine);
      try {
        return await work();
      } finally {
        await removeIfStill(file, mine);
      }
    },
    heldElsewhere() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return false;
      }
      const holder = parse(text);
      if (holder === 'empty') return true;
      return holder !== null && holder.pid !== pid && alive(holder);
    },
  };
}

/** "waiting for the import in arbor serve (process 1234)…" */
export function describeWait(holder: WriterLockHolder): string {
  return `waiting for the ${holder.doing ?? 'import'} in ${holder.name} (process ${holder.pid})…`;
}

/** Removes the lock only if it still holds `text`: a holder that broke a stale lock never removes the next one's. */
async function removeIfStill(file: string, text: string): Promise<void> {
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now === text) await rm(file, { force: true });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const realProbe: ProcessProbe = {
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: alive, owned by another user.
      return (error as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  },
  startedOf(pid) {
    if (process.platform !== 'linux') return null;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 22 (starttime); the command name (field 2) is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19] ?? null;
    } catch {
      return null;
    }
  },
};
