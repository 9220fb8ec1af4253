/**
 * Import: discover transcript files, then read each one from where the last import stopped (unchanged
 * files are skipped), streaming parsed lines into the store in batches; finally re-link the sessions
 * that changed. Cancellable between and within files; reports bytes and files as it goes.
 *
 * Big imports parse in a worker thread (the reader's `startWorker`) while this thread stores, so both cores
 * work. The worker takes over at a file boundary once it has loaded (the files before are parsed here, so
 * its start-up costs nothing); if it fails, the rest is parsed here. Both paths store the same rows.
 */
import { isStoreError } from '../db/database';
import type { FileImportOptions } from '../db/import-writer';
import { BATCH_LINES, FIRST_BATCH_LINES } from '../db/import-batches';
import type { BlockPacking } from '../db/blocks-ahead';
import type { SessionStore } from '../db/session-store';
import type { KnownFile, ParsedNode, ParseOptions, ParseResult, ParseSink, TranscriptFile } from '../importers/transcript';
import { ParseWorkerFailedError, type ParseWorker, type WorkerSink } from '../importers/worker/parse-worker';
import type { ParseJob } from '../importers/worker/worker-protocol';
import type { FileHistoryArchive } from './file-history-archive';
import { incompleteTailProblem } from './incomplete-tail';
import { backfillLongLines, keepLongLines, longLineSighting, type LongLineSighting } from './long-line-archive';
import { ImportLineTally } from './import-summary';
import { LinkedSoFar } from './import-write-groups';
import { CancelledError, throwIfAborted } from '../../shared/errors';
import type { ImportedSession, ImportProblem, ImportProgress, ImportReport, SessionId, SourceFormat } from '../../shared/model';

/** A format's reader, injected so tests can feed hand-made files and the service wires Claude Code's. */
export interface TranscriptReader {
  discover(
    paths: readonly string[],
    options: { readonly signal?: AbortSignal; readonly known?: KnownFile },
  ): Promise<{ readonly files: readonly TranscriptFile[]; readonly problems: readonly ImportProblem[] }>;
  parse(file: TranscriptFile, sink: ParseSink, options: ParseOptions): Promise<ParseResult>;
  /** Starts a worker thread that parses files ahead (optional: without it every file is parsed in-thread). */
  startWorker?(): ParseWorker;
  /** The label of a result line (`unnamedResultOf`) once its call's tool name is known; null to keep it. */
  relabelResult?(node: ParsedNode, toolName: string): string | null;
}

export interface ImportOptions {
  readonly jobId: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Keeps a report readable when a corrupt corpus yields a problem per line. */
  readonly maxProblems?: number;
  /**
   * Imports reading fewer bytes than this parse in-thread (a worker's start-up would dominate). Default
   * WORKER_FROM_BYTES; tests pass 0 or Infinity to pin a path.
   */
  readonly workerFromBytes?: number;
  /**
   * Hears the sessions linked while the import runs, so a first import fills the sessions list as it goes
   * instead of at the end: after a file, at most every `sessionsChangedEveryMs`, and once more for those
   * linked at the end (a cancelled import's committed batches too). Without it, nothing is linked before the end.
   */
  readonly onSessionsChanged?: (sessionIds: readonly SessionId[]) => void;
  /** Default SESSIONS_CHANGED_MS (import-write-groups.ts); tests pass 0 for a link after every file. */
  readonly sessionsChangedEveryMs?: number;
  /** Default LIST_BEFORE_BYTES: before a file this big, the sessions stored so far are linked and announced. */
  readonly listBeforeBytes?: number;
  /**
   * Copies the file-history backups each file's lines name into the snapshot store after the file is stored
   * (file-history-archive.ts), before Claude Code's cleanup can remove them. Without it nothing is copied.
   */
  readonly fileHistory?: FileHistoryArchive;
}

export interface ImportOutcome extends ImportReport {
  /** Sessions whose stored rows changed, all of them (`onSessionsChanged` heard them in parts). */
  readonly changedSessionIds: readonly SessionId[];
}

const PROGRESS_INTERVAL_MS = 100;
export const WORKER_FROM_BYTES = 4 * 1024 * 1024;
/** A file at least this big waits for a worker still loading rather than being parsed in-thread. */
const WAIT_FOR_WORKER_BYTES = 16 * 1024 * 1024;
/** Before a file at least this big, what is stored but not yet listed is linked and announced, throttle or not. */
const LIST_BEFORE_BYTES = 8 * 1024 * 1024;
/**
 * An import reading less than this (an append, a new small file) stores its raw lines as read and leaves their
 * compression to the background, after the full-text indexing: one deflate stream per line was ~6 of an append's
 * ~38 ms in-process (issue 12), and the compaction compresses them the same.
 */
export const COMPRESS_LATER_BELOW_BYTES = 1024 * 1024;
/**
 * An import reading at least this much folds the WAL back into the store as it ends (SessionStore.foldWal), and
 * as its write groups commit once it is large. One reading less (an append) never folds: the indexer folds between
 * its steps, and an append that arrived as the index merge began found 254 MB of WAL and folded it, 1.5 of its
 * 1.7 s (issue 12).
 */
const FOLD_WAL_FROM_BYTES = 16 * 1024 * 1024;

interface PlannedFile {
  readonly file: TranscriptFile;
  readonly startOffset: number;
  readonly startLine: number;
  /** What the parser kept when the last import stopped at `startOffset` (a Codex rollout's open calls, …). */
  readonly resumeState: string | null;
}

export async function importSessions(
  store: SessionStore,
  reader: TranscriptReader,
  paths: readonly string[],
  options: ImportOptions,
): Promise<ImportOutcome> {
  const { signal } = options;
  const tally = new ImportLineTally();
  const problems = new ProblemList(options.maxProblems ?? 10_000, (problem) => tally.problem(problem));
  const progress = new ProgressReporter(options);
  progress.report('discover', true);

  // Files stored with the same size and mtime keep their stored format: their heads are not read again.
  const discovered = await reader.discover(paths, { signal, known: (path) => store.fileState(path) });
  problems.addAll(discovered.problems);
  throwIfAborted(signal);
  const plan = planFiles(store, discovered.files, problems);
  const planBytes = plan.reduce((sum, item) => sum + (item.file.size - item.startOffset), 0);
  progress.start(plan.length, planBytes);

  const touched = new Map<SessionId, { source: SourceFormat; files: number; nodes: number }>();
  /** Files whose long lines this import copied (or tried to): the backfill of older stores leaves them alone. */
  const triedLongLines = new Set<string>();
  const linked = new LinkedSoFar(store, problems, options, planBytes >= FOLD_WAL_FROM_BYTES);
  store.setBulkMode(true);
  const compressLater = planBytes < COMPRESS_LATER_BELOW_BYTES ? store.compactionMark() : null;
  let cancelled: unknown = null;
  let worker = planBytes >= (options.workerFromBytes ?? WORKER_FROM_BYTES) ? (reader.startWorker?.() ?? null) : null;
  let workerHasRest = false;
  const listBefore = options.listBeforeBytes ?? LIST_BEFORE_BYTES;
  try {
    for (let index = 0; index < plan.length; index++) {
      const item = plan[index] as PlannedFile;
      throwIfAborted(signal);
      if (worker !== null && !workerHasRest && (worker.isReady() || item.file.size - item.startOffset >= WAIT_FOR_WORKER_BYTES)) {
        if (await worker.ready) {
          // Each file with how its writer will batch it: the worker compresses the raw-line blocks ahead (db/blocks-ahead.ts).
          worker.start(plan.slice(index).map((planned) => ({ ...workerJob(store, planned), packing: compressLater === null ? blockPacking(planned, listBefore) : null })));
          workerHasRest = true;
        } else {
          worker = null;
        }
      }
      const big = isBigFile(item, listBefore);
      // Sessions stored before a big file are listed before it starts, not after it (it may take minutes);
      // its first batch commits on its own, so its session is listed while it imports (the rest in growing groups).
      if (big) linked.beforeBigFile();
      else linked.group();
      progress.beginFile(item.file.path);
      const onBytes = (bytes: number): void => progress.fileBytes(bytes);
      // A big file's session is listed once its first batch is stored, then kept current while it imports.
      const onBatchStored = big ? linked.batchStored() : undefined;
      let result: FileOutcome;
      const longLines: LongLineSighting[] = [];
      try {
        const parse: ParseFile =
          worker !== null && workerHasRest
            ? (sink) => (worker as ParseWorker).next(sink, onBytes, signal)
            : (sink) => reader.parse(item.file, sink, { ...resumeOf(store, item), signal, onBytes });
        result = await importFile(store, reader, item, parse, problems, signal, { onBatchStored, compressRaw: compressLater === null, smallFirstBatch: big, unsavedInGroup: big }, tally, options.fileHistory, longLines);
      } catch (error) {
        if (!(error instanceof ParseWorkerFailedError)) throw error;
        // Lines it already delivered are stored again harmlessly (nodes dedupe by id, records by offset).
        worker = null;
        workerHasRest = false;
        longLines.length = 0;
        const parse: ParseFile = (sink) =>
          reader.parse(item.file, sink, { ...resumeOf(store, item), signal, onBytes });
        result = await importFile(store, reader, item, parse, problems, signal, { onBatchStored, compressRaw: compressLater === null, smallFirstBatch: big, unsavedInGroup: big }, tally, options.fileHistory, longLines);
      }
      if (result.sessionId !== null && options.fileHistory !== undefined) {
        await keepFileHistory(options.fileHistory, item.file, problems, signal, (path) => progress.backup(path));
      }
      if (result.sessionId !== null && longLines.length > 0) {
        triedLongLines.add(item.file.path);
        await keepWholeLongLines(store, item.file.path, longLines, problems, signal);
      }
      if (result.sessionId !== null) {
        const counts = touched.get(result.sessionId) ?? { source: item.file.format, files: 0, nodes: 0 };
        touched.set(result.sessionId, { source: counts.source, files: counts.files + 1, nodes: counts.nodes + result.nodesAdded });
      }
      progress.endFile(item.file.size - item.startOffset);
      linked.afterFile(result.nodesAdded > 0, big ? 0 : item.file.size - item.startOffset);
    }
    linked.commit();
    // A store imported before the archive: its transcripts' backups are copied once, by this import.
    if (options.fileHistory !== undefined) await backfillFileHistory(options.fileHistory, problems, signal, (path) => progress.backup(path));
    // The same for a store imported before it kept long lines whole (migration 034): copied from the files still there.
    problems.addAll((await backfillLongLines(store, signal, { skip: triedLongLines })).problems);
  } catch (error) {
    cancelled = error;
  } finally {
    try {
      // What a cancelled or failed import stored of its files so far is kept, as its batches were.
      linked.commit();
    } finally {
      await worker?.close();
    }
  }
  // Committed batches of a cancelled import too: their lines are stored as read either way.
  if (compressLater !== null) store.compactLater(compressLater);
  let link: ReturnType<SessionStore['linkChangedSessions']>;
  try {
    // Batches already committed are linked even when cancelled, so the store never shows half-linked sessions.
    link = store.linkChangedSessions();
  } finally {
    store.setBulkMode(false);
  }
  // An import that wrote much folds its WAL itself, so the next write (an append's, or the indexer's first chunk
  // an append waits for) does not; an append's few pages are left to the autocheckpoint.
  if (planBytes >= FOLD_WAL_FROM_BYTES) store.foldWal();
  linked.addProblems(link.problems);
  // Only now: a fork's parent or a continuation may be read later in the same import.
  if (cancelled === null) linked.addProblems(store.lineageProblems());
  linked.announce(link.sessionIds);
  if (cancelled !== null) throw cancelled;

  progress.report('done', true);
  const sessions: ImportedSession[] = [...touched].map(([id, counts]) => ({ id, ...counts }));
  const storedNodes = sessions.reduce((sum, session) => sum + session.nodes, 0);
  return { sessions, problems: problems.list(), lines: tally.summary(storedNodes), changedSessionIds: linked.all(link.sessionIds) };
}

/** Main transcripts before subagent files, so a subagent finds the session its parent created. */
function planFiles(store: SessionStore, files: readonly TranscriptFile[], problems: ProblemList): PlannedFile[] {
  const ordered = [...files].sort(
    (a, b) => Number(a.role === 'subagent') - Number(b.role === 'subagent') || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const plan: PlannedFile[] = [];
  for (const file of ordered) {
    // A deleted session's transcript stays out until its tombstone is cleared (arbor import --include-deleted).
    if (store.isDeletedFile(file.path)) continue;
    const state = store.fileState(file.path);
    if (state === null) {
      plan.push({ file, startOffset: 0, startLine: 1, resumeState: null });
    } else if (state.size === file.size && state.mtimeMs === file.mtimeMs) {
      // Unchanged since the last import; a final line still incomplete is reported again.
      const tail = incompleteTailProblem(file.path, state);
      if (tail !== null) problems.add(tail);
      continue;
    } else if (file.size < state.endOffset) {
      problems.add({ file: file.path, line: 0, reason: 'file shrank since the last import; read again from the start' });
      plan.push({ file, startOffset: 0, startLine: 1, resumeState: null });
    } else {
      plan.push({ file, startOffset: state.endOffset, startLine: state.endLine, resumeState: store.parseStateAt(file.path, state.endOffset) });
    }
  }
  return plan;
}

/** A file big enough that its sessions are listed before it and its first batch is small (FileImportOptions.smallFirstBatch). */
function isBigFile(item: PlannedFile, listBefore: number): boolean {
  return item.file.size - item.startOffset >= listBefore;
}

/** How the writer will batch a file's lines (import-batches.ts), as the import below opens it. */
function blockPacking(item: PlannedFile, listBefore: number): BlockPacking {
  return { firstBatchLines: isBigFile(item, listBefore) ? FIRST_BATCH_LINES : BATCH_LINES };
}

/** Where an in-thread parse of `item` starts, with its kept state; the state's keys are looked up as its lines need them. */
function resumeOf(store: SessionStore, item: PlannedFile): Pick<ParseOptions, 'startOffset' | 'startLine' | 'resumeState' | 'resumeKey'> {
  const { startOffset, startLine, resumeState } = item;
  if (resumeState === null) return { startOffset, startLine, resumeState };
  return { startOffset, startLine, resumeState, resumeKey: (key) => store.parseStateKey(item.file.path, key) };
}

/**
 * The worker's job for `item`: it cannot look keys up in the store, so every key kept with the state goes with
 * it. That grows with the file, but only a read of at least WORKER_FROM_BYTES is given to the worker.
 */
function workerJob(store: SessionStore, item: PlannedFile): ParseJob {
  if (item.resumeState === null) return item;
  return { ...item, resumeKeys: store.parseStateKeys(item.file.path) };
}

type ParseFile = (sink: WorkerSink) => Promise<ParseResult>;
type FileOutcome = { sessionId: SessionId | null; nodesAdded: number };

async function importFile(
  store: SessionStore,
  reader: TranscriptReader,
  item: PlannedFile,
  parse: ParseFile,
  problems: ProblemList,
  signal: AbortSignal | undefined,
  writeOptions: FileImportOptions,
  tally: ImportLineTally,
  fileHistory: FileHistoryArchive | undefined,
  longLines: LongLineSighting[],
): Promise<FileOutcome> {
  const writer = store.beginFile(item.file, writeOptions);
  const sink: WorkerSink = {
    node: (node) => {
      tally.node(node);
      const sighting = longLineSighting(node);
      if (sighting !== null) longLines.push(sighting);
      writer.node(node.unnamedResultOf === undefined ? node : named(store, reader, node, node.unnamedResultOf));
    },
    record: (record) => {
      tally.record(record);
      const sighting = longLineSighting(record);
      if (sighting !== null) longLines.push(sighting);
      writer.record(record);
      fileHistory?.collect(item.file, record);
    },
    problem: (problem) => problems.add(problem),
    blocksAhead: (blocks) => writer.blocksAhead(blocks),
  };
  try {
    const end = await parse(sink);
    const result = writer.finish(end);
    // After the file's rows: a state kept before them could be given to a read they do not match.
    if (end.resumeState !== undefined) store.keepParseState(item.file.path, end.endOffset, end.resumeState, end.resumeKeys);
    problems.addAll(result.problems ?? []);
    return result;
  } catch (error) {
    if (error instanceof ParseWorkerFailedError) throw error;
    if (error instanceof CancelledError || signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError();
    // The store failing is not the file being unreadable: the import fails, never reports the file as read.
    if (isStoreError(error)) throw error;
    // One unreadable file (deleted meanwhile, permissions) must not stop the rest of the import.
    problems.add({ file: item.file.path, line: 0, reason: `could not read: ${error instanceof Error ? error.message : String(error)}`, notImported: true });
    return { sessionId: null, nodesAdded: 0 };
  }
}

/** A long line that cannot be kept whole is the file's problem (its head stays stored); a cancel still stops it. */
async function keepWholeLongLines(
  store: SessionStore,
  path: string,
  sightings: readonly LongLineSighting[],
  problems: ProblemList,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await keepLongLines(store, path, sightings, signal);
  } catch (error) {
    if (error instanceof CancelledError || signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError();
    if (isStoreError(error)) throw error;
    problems.add({ file: path, line: 0, reason: `could not keep its long lines whole: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** A backup that cannot be copied is the file's problem, never the import's failure (a cancel still stops it). */
async function keepFileHistory(
  archive: FileHistoryArchive,
  file: TranscriptFile,
  problems: ProblemList,
  signal: AbortSignal | undefined,
  onBackup: (path: string) => void,
): Promise<void> {
  try {
    await archive.flush(file, signal, onBackup);
  } catch (error) {
    if (error instanceof CancelledError || signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError();
    if (isStoreError(error)) throw error;
    problems.add({ file: file.path, line: 0, reason: `could not keep its file-history backups: ${error instanceof Error ? error.message : String(error)}` });
  }
}

async function backfillFileHistory(archive: FileHistoryArchive, problems: ProblemList, signal: AbortSignal | undefined, onBackup: (path: string) => void): Promise<void> {
  try {
    await archive.backfill(signal, onBackup);
  } catch (error) {
    if (error instanceof CancelledError || signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError();
    if (isStoreError(error)) throw error;
    problems.add({ file: '', line: 0, reason: `could not keep the file-history backups of earlier imports: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** A result whose call an earlier import read gets the label a reading of the whole file gives it. */
function named(store: SessionStore, reader: TranscriptReader, node: ParsedNode, toolUseId: string): ParsedNode {
  const name = store.toolNameOf(toolUseId);
  const label = name === null ? null : (reader.relabelResult?.(node, name) ?? null);
  return label === null ? node : { ...node, label };
}

class ProblemList {
  private readonly items: ImportProblem[] = [];
  private dropped = 0;
  constructor(
    private readonly max: number,
    private readonly onAdd: (problem: ImportProblem) => void,
  ) {}
  add(problem: ImportProblem): void {
    this.onAdd(problem);
    if (this.items.length < this.max) this.items.push(problem);
    else this.dropped++;
  }
  addAll(problems: readonly ImportProblem[]): void {
    for (const problem of problems) this.add(problem);
  }
  list(): ImportProblem[] {
    if (this.dropped === 0) return this.items;
    return [...this.items, { file: '', line: 0, reason: `${this.dropped} more problems not listed` }];
  }
}

class ProgressReporter {
  private filesTotal = 0;
  private filesDone = 0;
  private bytesTotal = 0;
  private bytesDone = 0;
  private fileBytesRead = 0;
  private currentFile: string | null = null;
  private lastReport = 0;
  private backupTold = false;

  constructor(private readonly options: ImportOptions) {}

  start(filesTotal: number, bytesTotal: number): void {
    this.filesTotal = filesTotal;
    this.bytesTotal = bytesTotal;
    this.report('import', true);
  }
  beginFile(path: string): void {
    this.currentFile = path;
    this.backupTold = false;
    this.fileBytesRead = 0;
    this.report('import', false);
  }
  fileBytes(bytes: number): void {
    this.fileBytesRead = bytes;
    this.report('import', false);
  }
  /** A file-history backup being copied into the store, after its transcript's lines (shown as the current file). */
  backup(path: string): void {
    this.currentFile = path;
    // The first backup of a file is always told (the copying is a new step), the rest as throttled as lines.
    this.report('import', !this.backupTold);
    this.backupTold = true;
  }
  endFile(bytes: number): void {
    this.bytesDone += bytes;
    this.fileBytesRead = 0;
    this.filesDone++;
    this.report('import', this.filesDone === this.filesTotal);
  }
  report(phase: ImportProgress['phase'], force: boolean): void {
    if (!this.options.onProgress) return;
    const now = performance.now();
    if (!force && now - this.lastReport < PROGRESS_INTERVAL_MS) return;
    this.lastReport = now;
    this.options.onProgress({
      jobId: this.options.jobId,
      phase,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone: Math.min(this.bytesTotal, this.bytesDone + this.fileBytesRead),
      bytesTotal: this.bytesTotal,
      currentFile: phase === 'done' ? null : this.currentFile,
    });
  }
}
