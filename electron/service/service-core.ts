/**
 * The service behind the contract, with its format-specific parts injected (the transcript reader, the
 * content reader, default locations, the demo writer): arbor-service.ts wires the real ones, tests may not.
 */
import { projectLineage } from './project-lineage';
import { createStatsMethods } from './stats-methods';
import { foldersOfNode } from './session-folders';
import { linkedSessions } from '../db/session-lineage';
import { access, constants, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { storeErrorOf } from '../db/database';
import { openSessionStore } from '../db/session-store';
import { type ArborApi, type CallContext, type MethodName, requestValidators } from '../../shared/contract';
import { ArborError, CancelledError } from '../../shared/errors';
import type { ImportProgress, ImportReport, SessionId, SourceFormat, SourceLocation } from '../../shared/model';
import { listenForHooks } from '../hooks/hook-listener';
import { hookSocketPath } from '../hooks/hook-socket';
import { createEventHub } from './event-hub';
import { createFileHistoryArchive } from './file-history-archive';
import { createArchiveNoticeMethods } from './archive-notice';
import { claudeConfigDir } from '../snapshots/file-history';
import { createFullTextIndexer } from './full-text-indexer';
import { importSessions, type TranscriptReader } from './import-sessions';
import type { ImportWorkerHost, ImportWorkerHostOptions } from './import-worker-host';
import { startLiveTail } from './live-tail';
import { getNodeDetail, type NodeDetailOptions, type ReadNodeContent } from './node-detail';
import { getNodeDetails } from './node-details';
import { createSerialQueue } from './serial-queue';
import { createStoreWriterLock, describeWait } from './store-writer-lock';
import type { ArborService, ArborServiceOptions } from './service-types';
import { createArchiveExportMethod } from './archive-export';
import { createExportMethods } from './export-methods';
import { createLedgerMethods } from './ledger-methods';
import { createForkMethods } from './fork-methods';
import { createDeleteMethod, type ExclusiveWrite } from './delete-sessions';
import { createGcMethod, createGcScheduleMethod } from './gc-store';
import { forgetTombstones } from './undelete-sessions';
import { createMergeMethods } from './merge-methods';
import { createRewindMethods } from './rewind-methods';
import { createSearchMethod } from './search-method';
import { sessionFormatReport } from './session-format-report';
import { createSessionGraphs, snapshotNodeDetail } from './session-graphs';
import { createWorkspaceContext, type WorkspaceContext } from './workspace-context';
import { createWorkspaceMethods } from './workspace-methods';

export interface ServiceParts {
  readonly reader: TranscriptReader;
  readonly readNodeContent: ReadNodeContent;
  readonly defaultLocations: (homeDir: string, env: Readonly<Record<string, string | undefined>>) => readonly string[];
  /** The format whose default folder a location is (Claude Code when not given). */
  readonly formatOfLocation?: (path: string, homeDir: string, env: Readonly<Record<string, string | undefined>>) => SourceFormat | null;
  readonly createDemo: (
    dir: string,
    options: { now?: () => Date; signal?: AbortSignal },
  ) => Promise<{ readonly dir: string; readonly transcriptFiles: readonly string[]; readonly sessionId: string }>;
  /**
   * Runs imports and the full-text indexing after them in a worker thread with its own connection to this store
   * file (import-worker-host.ts), so the store's writes never hold up requests; without it (tests' hand-made
   * readers) both run in-thread.
   */
  readonly startImportWorker?: (storeFile: string, options: ImportWorkerHostOptions) => ImportWorkerHost;
}

export const STORE_FILE = 'arbor.sqlite';

export async function createServiceWith(options: ArborServiceOptions, parts: ServiceParts): Promise<ArborService> {
  const now = options.now ?? (() => new Date());
  try {
    await mkdir(options.dataDir, { recursive: true });
  } catch (error) {
    throw new ArborError('IO', `Cannot create the data folder ${options.dataDir}: ${String(error)}`);
  }
  const storeFile = join(options.dataDir, STORE_FILE);
  const readOnly = !(await (options.canWrite ?? canWrite)(options.dataDir, storeFile));
  const store = openSessionStore(storeFile, { readOnly });
  const events = createEventHub();
  const imports = createSerialQueue();
  const writerLock = createStoreWriterLock({
    dataDir: options.dataDir,
    name: options.name ?? defaultName(options.host),
    onWait: (holder) => options.onWaitForWriter?.(describeWait(holder)),
  });
  const onIndexProgress = (progress: { done: number; total: number }): void => events.emit('index.progress', progress);
  // Its thread starts at the first import or index (a read-only store does neither) and stays until close.
  const claudeConfig = claudeConfigDir(options.homeDir, options.env);
  const workerHost = readOnly || parts.startImportWorker === undefined ? null : parts.startImportWorker(storeFile, { onIndexProgress, claudeConfigDir: claudeConfig });
  const indexer =
    workerHost?.indexer ??
    createFullTextIndexer(store, {
      // Another process importing: its batches and this indexer's chunks would only wait for each other.
      paused: () => readOnly || imports.busy || writerLock.heldElsewhere(),
      onProgress: onIndexProgress,
    });
  // Closing aborts whatever import is still running.
  const lifetime = new AbortController();
  let jobCounter = 0;
  let closed = false;
  const workspace = createWorkspaceContext(store, {
    dataDir: options.dataDir,
    homeDir: options.homeDir,
    env: options.env,
    now,
    lifetime: lifetime.signal,
    events,
    // A read-only store takes no turn: its writes are refused before they start.
    ...(readOnly ? {} : { writerTurn: (signal, work, doing) => writerLock.withTurn(signal, work, doing) }),
  });
  if (!readOnly) await recoverOperations(workspace);
  // A store from before tokens were counted (migration 023) counts its stored lines in the background now,
  // not at the next import: the Statistics view says "counting…" until then. Rows indexed before migration 039
  // get their kind×project token the same way (searches match as before until then), and rows not yet indexed
  // (a run stopped mid-way, or an index a migration builds again, 043) are indexed now, not at the next import.
  if (!readOnly && (store.pendingUsageRows() > 0 || store.pendingFacetRewriteRows() > 0 || store.pendingIndexRows() > 0)) indexer.kick();
  // A session that received nodes needs its reconstruction rebuilt.
  events.on('sessions.changed', ({ sessionIds }) => workspace.states.forget(sessionIds));
  const { graphInPages, ...graphs } = createSessionGraphs(workspace);
  // In-thread imports (no worker) keep the file-history backups too; the worker makes its own.
  const fileHistory = createFileHistoryArchive(store, { claudeConfigDir: claudeConfig, objects: workspace.objects, now });
  // A deletion or gc waits for this process's imports, then holds the writer turn like every writer.
  const exclusive: ExclusiveWrite = (work) => imports.run(() => workspace.writes.run(work));

  function runImport(paths: readonly string[], context: CallContext | undefined): Promise<ImportReport> {
    const signal = context?.signal ? AbortSignal.any([context.signal, lifetime.signal]) : lifetime.signal;
    const jobId = `import-${++jobCounter}`;
    const job = imports.run(async () => {
      if (signal.aborted) throw new CancelledError();
      // One importing process at a time on this data folder: the others wait their turn.
      return writerLock.withTurn(signal, asStoreErrors(async () => {
        const importOptions = {
          jobId,
          signal,
          onProgress: (progress: ImportProgress) => events.emit('import.progress', progress),
          // As sessions are stored (throttled) and at the end: the first import fills the list as it goes.
          // With the sessions linked to them: a fork's or a continuation's graph and titles are built from its parent's.
          onSessionsChanged: (sessionIds: readonly SessionId[]) =>
            events.emit('sessions.changed', { sessionIds: linkedSessions(store.lineageLinks(), sessionIds) }),
        };
        const outcome =
          workerHost !== null ? await workerHost.run(paths, importOptions) : await importSessions(store, parts.reader, paths, { ...importOptions, fileHistory });
        return { sessions: outcome.sessions, problems: outcome.problems, ...(outcome.lines ? { lines: outcome.lines } : {}) };
      }));
    });
    // Full-text indexing follows the import (failed and cancelled ones too: their committed batches count).
    const indexAfterImport = (): void => indexer.kick();
    void job.then(indexAfterImport, indexAfterImport);
    return job;
  }

  async function locations(): Promise<SourceLocation[]> {
    return Promise.all(
      parts.defaultLocations(options.homeDir, options.env).map(async (path) => ({
        format: parts.formatOfLocation?.(path, options.homeDir, options.env) ?? ('claude-code' as const),
        path,
        exists: await stat(path).then(
          (info) => info.isDirectory(),
          () => false,
        ),
      })),
    );
  }

  const detailOf = (nodeId: string, options?: NodeDetailOptions) => {
    const snapshot = store.getSnapshotByNode(nodeId);
    return snapshot === null ? getNodeDetail(store, parts.readNodeContent, nodeId, options) : snapshotNodeDetail(snapshot);
  };
  const methods: ArborApi = {
    'app.info': async () => ({
      version: options.version,
      dataDir: options.dataDir,
      platform: process.platform,
      host: options.host === 'electron' ? 'electron' : 'web',
    }),
    ...graphs,
    'nodes.get': async ({ nodeId }) => detailOf(nodeId),
    'nodes.details': async ({ nodeIds }, context) => getNodeDetails(nodeIds, detailOf, context?.signal),
    'nodes.folder': async ({ nodeId }) => ({ folder: foldersOfNode(store, nodeId).folder }),
    ...createWorkspaceMethods(workspace),
    ...createRewindMethods(workspace),
    ...createForkMethods(workspace),
    ...createMergeMethods(workspace, { importFiles: (paths) => runImport(paths, undefined) }),
    'sessions.delete': createDeleteMethod(workspace, exclusive),
    'store.gc': createGcMethod(workspace, exclusive),
    'store.gcSchedule': createGcScheduleMethod(workspace),
    ...createArchiveNoticeMethods(workspace),
    'search.query': createSearchMethod(store, () => imports.busy),
    'sessions.formatReport': async ({ sessionId }, context) => sessionFormatReport(store, sessionId, context?.signal),
    'sessions.projectLineage': async ({ project }, context) => projectLineage(graphs['sessions.list'], project, context?.signal),
    ...createStatsMethods(store, now),
    ...createExportMethods({ graph: graphs['sessions.graph'], detail: (nodeId) => detailOf(nodeId, { wholeLine: true }), events, homeDir: options.homeDir, version: options.version, now }),
    'archive.export': createArchiveExportMethod(workspace, options.version),
    ...createLedgerMethods({ graph: graphs['sessions.graph'], inPages: graphInPages, store }),
    'import.locations': async () => ({ locations: await locations() }),
    'import.run': async ({ paths, includeDeleted }, context) => {
      const targets = paths ?? (await locations()).filter((location) => location.exists).map((location) => location.path);
      if (includeDeleted === true) forgetTombstones(store, targets);
      return runImport(targets, context);
    },
    'demo.create': async ({ dir }, context) => {
      const target = dir ?? join(options.dataDir, `demo-${stamp(now())}`);
      const demo = await parts.createDemo(target, { now, signal: context?.signal });
      await runImport(demo.transcriptFiles, context);
      // The demo's lines may already be stored (a second demo): report the session they live in.
      const sessionId = demo.transcriptFiles.map((file) => store.sessionOfFile(file)).find((id) => id !== null) ?? demo.sessionId;
      return { sessionId, dir: demo.dir };
    },
  };

  const api = guard(methods, () => closed, readOnly ? options.dataDir : null);
  return {
    api,
    events,
    async idle() {
      await imports.drained();
      try {
        await indexer.idle();
      } catch (error) {
        throw storeErrorOf(error) ?? error;
      }
    },
    tail(tailOptions = {}) {
      // Nothing can be imported into a read-only store: the app and `arbor serve` still open it for reading.
      if (readOnly) return { ready: Promise.resolve(), stop: () => Promise.resolve() };
      const { folders, ...rest } = tailOptions;
      const signal = tailOptions.signal ? AbortSignal.any([tailOptions.signal, lifetime.signal]) : lifetime.signal;
      return startLiveTail(
        {
          folders: async () => folders ?? parts.defaultLocations(options.homeDir, options.env),
          knownFiles: () => (folders === undefined ? store.transcriptFiles() : []),
          discover: async (within, signal) => (await parts.reader.discover(within, { signal })).files,
          importFiles: (paths, signal) => runImport(paths, { signal }),
          // The list asks again and marks the sessions "source deleted" (sessions.list stats their files).
          filesGone: (paths) => {
            const sessionIds = [...new Set(paths.map((path) => store.sessionOfFile(path)).filter((id): id is SessionId => id !== null))];
            if (sessionIds.length > 0) events.emit('sessions.changed', { sessionIds });
          },
        },
        { ...rest, signal },
      );
    },
    listenForHooks() {
      // The hooks then capture on their own (and are refused READ_ONLY): no socket in a folder that cannot hold one.
      if (readOnly) return Promise.resolve({ path: null, stop: () => Promise.resolve() });
      return listenForHooks(hookSocketPath(options.dataDir), api, lifetime.signal);
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      await imports.drained();
      // Stops the worker's indexer too, between two chunks.
      await workerHost?.close();
      await indexer.stop();
      await workspace.close();
      store.close();
    },
  };
}

/**
 * Completes or rolls back workspace operations a crash interrupted, before the service answers a call.
 * A recovery problem never stops the start: it is written to stderr (the paths are left as they are).
 */
async function recoverOperations(workspace: WorkspaceContext): Promise<void> {
  try {
    const report = await workspace.operations.recover();
    for (const id of report.rolledBack) process.stderr.write(`arbor: operation ${id} was interrupted and has been rolled back\n`);
    for (const id of report.completed) process.stderr.write(`arbor: operation ${id} was interrupted after its last write and has been completed\n`);
    for (const problem of report.problems) {
      process.stderr.write(`arbor: recovering operation ${problem.operation}: ${problem.path ? `${problem.path}: ` : ''}${problem.message}\n`);
    }
  } catch (error) {
    process.stderr.write(`arbor: cannot recover interrupted operations: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/**
 * The methods that write the store or the snapshot store (previews capture the workspace into it): refused
 * up front on a read-only data folder, before any work.
 */
const WRITING_METHODS: ReadonlyMap<MethodName, string> = new Map<MethodName, string>([
  ['import.run', 'import'],
  ['demo.create', 'create a demo'],
  ['snapshots.capture', 'take a snapshot'],
  ['rewind.preview', 'rewind'],
  ['rewind.apply', 'rewind'],
  ['operations.undo', 'undo'],
  ['fork.create', 'fork'],
  ['forks.remove', 'remove forks'],
  ['merge.preview', 'merge'],
  ['merge.apply', 'merge'],
  ['merge.continue', 'continue from a merge'],
  ['prices.set', 'change prices'],
  ['prices.remove', 'change prices'],
  ['prices.reset', 'change prices'],
  ['prices.setPlan', 'change plans'],
  ['sessions.delete', 'delete sessions'],
  ['store.gc', 'collect garbage'],
  ['archive.dismissNotice', 'remember the dismissed notice'],
]);

/**
 * Every method validates its request (the CLI calls the service directly), refuses after close, refuses to
 * write on a read-only data folder (`readOnlyDir`), and reports the store's sharing failures with codes.
 */
function guard(methods: ArborApi, isClosed: () => boolean, readOnlyDir: string | null): ArborApi {
  const guarded = {} as Record<MethodName, (request: unknown, context?: CallContext) => Promise<unknown>>;
  for (const name of Object.keys(methods) as MethodName[]) {
    const method = methods[name] as (request: unknown, context?: CallContext) => Promise<unknown>;
    const validate = requestValidators[name] as (value: unknown) => unknown;
    guarded[name] = async (request, context) => {
      if (isClosed()) throw new ArborError('INTERNAL', 'The service is closed');
      const writes = WRITING_METHODS.get(name);
      if (readOnlyDir !== null && writes !== undefined) throw readOnlyError(readOnlyDir, writes);
      try {
        return await method(validate(request ?? {}), context);
      } catch (error) {
        throw storeErrorOf(error) ?? error;
      }
    };
  }
  return guarded as unknown as ArborApi;
}

/** The live tail calls imports without the guard: its failures carry the same codes. */
function asStoreErrors<T>(work: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await work();
    } catch (error) {
      throw storeErrorOf(error) ?? error;
    }
  };
}

function readOnlyError(dataDir: string, what: string): ArborError {
  return new ArborError('READ_ONLY', `The data folder ${dataDir} is read-only: cannot ${what}`);
}

/** A real check (access(2), so a read-only mount counts too): the folder, and the store file when it exists. */
async function canWrite(dataDir: string, storeFile: string): Promise<boolean> {
  const writable = (path: string): Promise<boolean> => access(path, constants.W_OK).then(() => true, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
  return (await writable(dataDir)) && (await writable(storeFile));
}

function defaultName(host: ArborServiceOptions['host']): string {
  return host === 'electron' ? 'the Arbor app' : host === 'web' ? 'arbor serve' : 'arbor';
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
}
