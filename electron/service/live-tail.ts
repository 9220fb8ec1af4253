/**
 * Live tail: transcripts that grow while an agent runs are imported as they grow, so an open graph shows new
 * lines within a second. fs.watch (recursive; Node 20 supports it on Linux too) on the transcript folders says
 * which file changed; a cheap poll of the known files' sizes (those found there and those imported from
 * elsewhere) covers file systems where watching does not work, and a slower rescan finds new files. Each change is debounced, and one file is never imported twice at once: the importer
 * resumes from the stored offset, so a change that lands during an import is picked up by one more run.
 */
import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';

export interface TailedFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Where transcripts are and how to import them (service-core.ts wires the store and the importer). */
export interface LiveTailSource {
  /** Folders to watch and search for new transcripts: the default transcript locations. */
  folders(): Promise<readonly string[]>;
  /** Transcripts already imported (wherever they are): watched through polling, and through their folder when it is watched. */
  knownFiles(): readonly string[];
  /** The transcript files under these folders (the importer's own discovery rules). */
  discover(folders: readonly string[], signal: AbortSignal): Promise<readonly TailedFile[]>;
  /** Imports the files from where the last import stopped; emits `sessions.changed` for what it added. */
  importFiles(paths: readonly string[], signal: AbortSignal): Promise<unknown>;
  /**
   * Known transcripts that are no longer on disk (their agent's cleanup, the user): their sessions stay in the
   * store, and the list marks them "source deleted". Heard once per file; a file that comes back is tailed again.
   */
  filesGone?(paths: readonly string[]): void;
}

export interface LiveTailOptions {
  readonly signal?: AbortSignal;
  /** How often the known files' sizes are checked (the fallback when watching misses a change). */
  readonly pollMs?: number;
  /** How long a file must stay quiet before it is imported (an agent writes a turn as several lines). */
  readonly debounceMs?: number;
  /** How often the folders are searched for new files. */
  readonly rescanMs?: number;
  /** A failed import or scan (the tail goes on). */
  readonly onError?: (error: unknown, path: string | null) => void;
}

export interface LiveTail {
  /** Resolves once the first scan is done and watching has started. */
  readonly ready: Promise<void>;
  /** Stops watching and polling, cancels imports in flight, and resolves when they have settled. */
  stop(): Promise<void>;
}

export const DEFAULT_POLL_MS = 500;
export const DEFAULT_DEBOUNCE_MS = 150;
export const DEFAULT_RESCAN_MS = 5000;
/** A transcript written to within this long is "live": polled every time. */
const HOT_MS = 60 * 60 * 1000;

export function startLiveTail(source: LiveTailSource, options: LiveTailOptions = {}): LiveTail {
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const rescanMs = options.rescanMs ?? DEFAULT_RESCAN_MS;
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const report = (error: unknown, path: string | null): void => {
    if (!signal.aborted) options.onError?.(error, path);
  };

  const known = new Map<string, { size: number; mtimeMs: number }>();
  const watchers = new Map<string, FSWatcher>();
  const debounce = new Map<string, ReturnType<typeof setTimeout>>();
  const importing = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const searching = new Map<string, Promise<void>>();
  const notTranscripts = new Set<string>();
  /** Known files found missing since the source last heard of it. */
  const gone = new Set<string>();
  let folders: readonly string[] = [];
  let polling = false;
  let lastRescan = Date.now();

  function schedule(path: string): void {
    if (signal.aborted) return;
    const pending = debounce.get(path);
    if (pending !== undefined) clearTimeout(pending);
    debounce.set(
      path,
      setTimeout(() => {
        debounce.delete(path);
        runImport(path);
      }, debounceMs),
    );
  }

  function runImport(path: string): void {
    if (signal.aborted) return;
    if (importing.has(path)) {
      again.add(path);
      return;
    }
    const job = (async () => {
      // The size before importing is the baseline: growth during the import shows up at the next poll.
      await remember(path);
      try {
        await source.importFiles([path], signal);
      } catch (error) {
        report(error, path);
      }
    })().finally(() => {
      importing.delete(path);
      if (again.delete(path)) runImport(path);
    });
    importing.set(path, job);
  }

  async function remember(path: string): Promise<boolean> {
    const info = await stat(path).catch(() => null);
    if (info === null) {
      if (known.delete(path)) gone.add(path);
      return false;
    }
    const before = known.get(path);
    known.set(path, { size: info.size, mtimeMs: info.mtimeMs });
    return before !== undefined && (before.size !== info.size || before.mtimeMs !== info.mtimeMs);
  }

  /** New files (found by a watch event or a rescan) are imported whole; files present at start are the baseline. */
  async function scan(within: readonly string[], baseline: boolean): Promise<void> {
    const files = await source.discover(within, signal);
    for (const file of files) {
      if (known.has(file.path)) continue;
      known.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
      if (!baseline) schedule(file.path);
    }
  }

  function onWatchEvent(root: string, filename: string | Buffer | null): void {
    if (filename === null) return;
    const path = join(root, filename.toString());
    if (known.has(path)) schedule(path);
    else if (path.endsWith('.jsonl') && !notTranscripts.has(path)) discoverNear(path);
  }

  /** A new .jsonl file: its folder is searched once at a time, with the importer's rules (it may not be a transcript). */
  function discoverNear(path: string): void {
    const folder = dirname(path);
    if (searching.has(folder)) return;
    const search = scan([folder], false)
      .then(() => {
        if (!known.has(path)) notTranscripts.add(path);
      })
      .catch((error: unknown) => report(error, path))
      .finally(() => searching.delete(folder));
    searching.set(folder, search);
  }

  async function startWatching(): Promise<void> {
    folders = outermost(await source.folders());
    for (const folder of folders) {
      if (watchers.has(folder) || signal.aborted) continue;
      try {
        const watcher = watch(folder, { recursive: true, persistent: false }, (_event, filename) => onWatchEvent(folder, filename));
        // A watcher that fails (too many watches, the folder went away) leaves the folder to polling.
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        // Missing for now (no transcripts yet): the next rescan tries again.
      }
    }
  }

  async function poll(): Promise<void> {
    if (polling || signal.aborted) return;
    polling = true;
    try {
      const now = Date.now();
      const rescan = now - lastRescan >= rescanMs;
      // Files written lately are checked every time; the others (most of a long history) only at rescans.
      const paths = [...known]
        .filter(([path, file]) => (rescan || now - file.mtimeMs < HOT_MS) && !importing.has(path) && !debounce.has(path))
        .map(([path]) => path);
      const changed = await Promise.all(paths.map((path) => remember(path)));
      paths.forEach((path, index) => {
        if (changed[index]) schedule(path);
      });
      if (gone.size > 0) {
        const went = [...gone];
        gone.clear();
        source.filesGone?.(went);
      }
      if (rescan) {
        lastRescan = now;
        await startWatching();
        await scan(folders, false);
      }
    } catch (error) {
      report(error, null);
    } finally {
      polling = false;
    }
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  const ready = (async () => {
    try {
      await startWatching();
      await scan(folders, true);
      await Promise.all(source.knownFiles().map((path) => remember(path)));
    } catch (error) {
      report(error, null);
    }
    if (!signal.aborted) timer = setInterval(() => void poll(), pollMs);
  })();

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      controller.abort();
      await ready;
      if (timer !== undefined) clearInterval(timer);
      for (const pending of debounce.values()) clearTimeout(pending);
      debounce.clear();
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      await Promise.allSettled([...importing.values(), ...searching.values()]);
    })());
  options.signal?.addEventListener('abort', () => void stop(), { once: true });
  return { ready, stop };
}

/** Each folder once, and none inside another (a recursive watch of the outer one covers it). */
export function outermost(folders: readonly string[]): string[] {
  const sorted = [...new Set(folders)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const folder of sorted) {
    if (!kept.some((outer) => isInside(folder, outer))) kept.push(folder);
  }
  return kept;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
