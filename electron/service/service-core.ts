/**
 * The service behind the contract, with its format-specific parts injected (the transcript reader, the
 * content reader, default locations, the demo writer): arbor-service.ts wires the real ones, tests may not.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openSessionStore } from '../db/session-store';
import { type ArborApi, type CallContext, type MethodName, requestValidators } from '../../shared/contract';
import { ArborError, CancelledError } from '../../shared/errors';
import type { ImportReport, SourceLocation } from '../../shared/model';
import { listenForHooks } from '../hooks/hook-listener';
import { hookSocketPath } from '../hooks/hook-socket';
import { createEventHub } from './event-hub';
import { createFullTextIndexer } from './full-text-indexer';
import { importSessions, type TranscriptReader } from './import-sessions';
import { startLiveTail } from './live-tail';
import { getNodeDetail, type ReadNodeContent } from './node-detail';
import { getNodeDetails } from './node-details';
import { createSerialQueue } from './serial-queue';
import type { ArborService, ArborServiceOptions } from './service-types';
import { createForkMethods } from './fork-methods';
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
  readonly createDemo: (
    dir: string,
    options: { now?: () => Date; signal?: AbortSignal },
  ) => Promise<{ readonly dir: string; readonly transcriptFiles: readonly string[]; readonly sessionId: string }>;
}

export const STORE_FILE = 'arbor.sqlite';

export async function createServiceWith(options: ArborServiceOptions, parts: ServiceParts): Promise<ArborService> {
  const now = options.now ?? (() => new Date());
  try {
    await mkdir(options.dataDir, { recursive: true });
  } catch (error) {
    throw new ArborError('IO', `Cannot create the data folder ${options.dataDir}: ${String(error)}`);
  }
  const store = openSessionStore(join(options.dataDir, STORE_FILE));
  const events = createEventHub();
  const imports = createSerialQueue();
  const indexer = createFullTextIndexer(store, {
    paused: () => imports.busy,
    onProgress: (progress) => events.emit('index.progress', progress),
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
  });
  await recoverOperations(workspace);
  // A session that received nodes needs its reconstruction rebuilt.
  events.on('sessions.changed', ({ sessionIds }) => workspace.states.forget(sessionIds));
  const graphs = createSessionGraphs(workspace);

  function runImport(paths: readonly string[], context: CallContext | undefined): Promise<ImportReport> {
    const signal = context?.signal ? AbortSignal.any([context.signal, lifetime.signal]) : lifetime.signal;
    const jobId = `import-${++jobCounter}`;
    const job = imports.run(async () => {
      if (signal.aborted) throw new CancelledError();
      const outcome = await importSessions(store, parts.reader, paths, {
        jobId,
        signal,
        onProgress: (progress) => events.emit('import.progress', progress),
        // As sessions are stored (throttled) and at the end: the first import fills the list as it goes.
        onSessionsChanged: (sessionIds) => events.emit('sessions.changed', { sessionIds: [...sessionIds] }),
      });
      return { sessions: outcome.sessions, problems: outcome.problems };
    });
    // Full-text indexing follows the import (failed and cancelled ones too: their committed batches count).
    const indexAfterImport = (): void => indexer.kick();
    void job.then(indexAfterImport, indexAfterImport);
    return job;
  }

  async function locations(): Promise<SourceLocation[]> {
    return Promise.all(
      parts.defaultLocations(options.homeDir, options.env).map(async (path) => ({
        format: 'claude-code' as const,
        path,
        exists: await stat(path).then(
          (info) => info.isDirectory(),
          () => false,
        ),
      })),
    );
  }

  const detailOf = (nodeId: string) => {
    const snapshot = store.getSnapshotByNode(nodeId);
    return snapshot === null ? getNodeDetail(store, parts.readNodeContent, nodeId) : snapshotNodeDetail(snapshot);
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
    ...createWorkspaceMethods(workspace),
    ...createRewindMethods(workspace),
    ...createForkMethods(workspace),
    ...createMergeMethods(workspace),
    'search.query': createSearchMethod(store, () => imports.busy),
    'sessions.formatReport': async ({ sessionId }, context) => sessionFormatReport(store, sessionId, context?.signal),
    'import.locations': async () => ({ locations: await locations() }),
    'import.run': async ({ paths }, context) => {
      const targets = paths ?? (await locations()).filter((location) => location.exists).map((location) => location.path);
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

  const api = guard(methods, () => closed);
  return {
    api,
    events,
    async idle() {
      await imports.drained();
      await indexer.idle();
    },
    tail(tailOptions = {}) {
      const { folders, ...rest } = tailOptions;
      const signal = tailOptions.signal ? AbortSignal.any([tailOptions.signal, lifetime.signal]) : lifetime.signal;
      return startLiveTail(
        {
          folders: async () => folders ?? parts.defaultLocations(options.homeDir, options.env),
          knownFiles: () => (folders === undefined ? store.transcriptFiles() : []),
          discover: async (within, signal) => (await parts.reader.discover(within, { signal })).files,
          importFiles: (paths, signal) => runImport(paths, { signal }),
        },
        { ...rest, signal },
      );
    },
    listenForHooks() {
      return listenForHooks(hookSocketPath(options.dataDir), api, lifetime.signal);
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      await imports.drained();
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

/** Every method validates its request (the CLI calls the service directly) and refuses after close. */
function guard(methods: ArborApi, isClosed: () => boolean): ArborApi {
  const guarded = {} as Record<MethodName, (request: unknown, context?: CallContext) => Promise<unknown>>;
  for (const name of Object.keys(methods) as MethodName[]) {
    const method = methods[name] as (request: unknown, context?: CallContext) => Promise<unknown>;
    const validate = requestValidators[name] as (value: unknown) => unknown;
    guarded[name] = async (request, context) => {
      if (isClosed()) throw new ArborError('INTERNAL', 'The service is closed');
      return method(validate(request ?? {}), context);
    };
  }
  return guarded as unknown as ArborApi;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
}
