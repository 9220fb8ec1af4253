/**
 * The session store as callers see it: no SQL crosses this interface. Writes go through the one writer
 * connection; reads through a read-only connection that sees the last committed state.
 */
import { deriveSearchText } from '../importers/search-text';
import type { ResumeKeys, TranscriptFile } from '../importers/transcript';
import type { ImportProblem, NodeSummary, SearchFilters, SearchHit, SearchIndexProgress, SessionId, SessionSummary } from '../../shared/model';
import { getSessionRecords, prepareSessionRecordQueries, type SessionRecord, type SessionRecordType } from './session-records';
import { beginWriteGroup, commitWriteGroup, deferCheckpoints, foldLargeWal, foldWal, openDatabase, setBulkMode, storeErrorOf, type DatabaseHandles, type OpenDatabaseOptions } from './database';
import { beginFileImport, type FileImport, type FileImportOptions, prepareImportStatements, readFileState, type StoredFileState } from './import-writer';
import { pendingFacetRewriteRows, prepareFacetRewrite, rewriteFacetsChunk } from './search-facet-rewrite';
import { backfillUsageChunk, pendingUsageRows, prepareUsageBackfill } from './usage-backfill';
import { compactLater, compactionMark, compactNextChunk, type CompactionMark, pendingCompactionRows, prepareCompactionStatements } from './raw-compaction';
import { linkChangedSessions, prepareLinkStatements } from './session-linker';
import { keepParseState, parseStateAt, parseStateKey, parseStateKeys, prepareParseStateStatements } from './parse-states';
import { prepareLineageStatements, reportMissingLineage } from './lineage-links';
import {
  getAttachedRecords,
  getStoredNode,
  getStoredToolCalls,
  prepareNodeQueries,
  type StoredNode,
  type StoredRecord,
  type StoredToolCall,
} from './node-queries';
import { prepareTombstoneQueries } from './deleted-files';
import { forEachSessionLine, prepareSessionLineQueries, type StoredLine } from './session-lines';
import { finishFormatCount, formatCountParts, prepareFormatCountQueries, readFormatLines, type FormatCountCursor, type FormatCountPart } from './format-counts';
import { prepareResultIdQueries } from './result-ids';
import type { FileTally } from '../importers/format-doctor-intake';
import { allLineageLinks, nodePath, prepareLineageQueries, type LineageLink } from './session-lineage';
import { getSession, getSessionNodes, getSessionNodesPage, listSessions, prepareSessionQueries, type NodePagePosition } from './session-queries';
import {
  findToolCallNodes,
  insertSnapshot,
  prepareSnapshotQueries,
  prepareSnapshotWrites,
  type SnapshotRecord,
  type ToolCallNodes,
  toSnapshotRecord,
} from './snapshot-records';
import {
  countSearchHits,
  type DeriveSearchText,
  indexNextChunk,
  startIndexChunk,
  startIndexMerge,
  type IndexChunk,
  mergeIndexStep,
  indexProgress,
  pendingIndexRows,
  prepareIndexStatements,
  prepareSearchQueries,
  searchNodes,
  searchPage,
  type SearchPage,
} from './search';

export type { FileImport, FileImportOptions, FileImportResult, StoredFileState } from './import-writer';
export type { LineageLink } from './session-lineage';
export type { StoredNode, StoredRecord, StoredToolCall } from './node-queries';
export type { SessionRecord, SessionRecordType } from './session-records';
export type { StoredLine } from './session-lines';
export type { DeriveSearchText } from './search';
export type { SnapshotRecord, ToolCallNodes } from './snapshot-records';

export interface SessionStore {
  // --- import (write side)
  /** What the store knows about a file: to skip it when unchanged or resume it where it stopped. */
  fileState(path: string): StoredFileState | null;
  /** Starts (or resumes) storing one file's lines; call `finish` with the parser's end position. */
  beginFile(file: TranscriptFile, options?: FileImportOptions): FileImport;
  /** Finishes every session that received nodes since the last call (cycles a late parent closed, title, project). */
  linkChangedSessions(): { readonly sessionIds: SessionId[]; readonly problems: ImportProblem[] };
  /** At an import's end: each new fork / continuation / cleared-context link whose other session is not stored, once. */
  lineageProblems(): ImportProblem[];
  /** What the file's parser kept when the last import stopped at `offset` (ParseOptions.resumeState); null: none. */
  parseStateAt(path: string, offset: number): string | null;
  /** One key of the file's kept state (ParseOptions.resumeKey); null: none kept under it. */
  parseStateKey(path: string, key: string): string | null;
  /** Every key of the file's kept state (for the parse worker, which cannot look them up one at a time). */
  parseStateKeys(path: string): [string, string][];
  /**
   * Keeps what the parser left at `offset` (ParseResult.resumeState, and the keys it set: resumeKeys) for the
   * next import; null forgets it, keys and all.
   */
  keepParseState(path: string, offset: number, state: string | null, keys?: ResumeKeys): void;
  /** The tool name of a stored call (to name a result whose call an earlier import read). */
  toolNameOf(toolUseId: string): string | null;
  /** Bulk mode trades durability of the batch in flight for speed; imports are idempotent to re-run. */
  setBulkMode(on: boolean): void;
  /**
   * Holds one write transaction open that the next batches, files and links join, until `commitWriteGroup`:
   * several small files commit (and write the pages they share) once. Not inside another transaction.
   */
  beginWriteGroup(): void;
  /** Commits the open write group (no-op when none is open), then folds a large WAL unless `fold` is false. */
  commitWriteGroup(fold?: boolean): void;
  /** Copies the WAL back into the store file (after a big import, so the next write does not). */
  foldWal(): void;
  /** Checkpoints left to the caller (foldLargeWal, foldWal) while on; SQLite's every 256 pages when off. */
  deferCheckpoints(on: boolean): void;
  /** Folds the WAL back once it has grown past the bulk bound (database.ts BULK_WAL_BYTES). */
  foldLargeWal(): void;

  // --- reads
  listSessions(request: { readonly query?: string; readonly limit?: number; readonly offset?: number }): {
    sessions: SessionSummary[];
    total: number;
  };
  getSession(sessionId: SessionId): SessionSummary | null;
  getSessionNodes(sessionId: SessionId): NodeSummary[];
  /** One slice of getSessionNodes' answer, from `after` (FIRST_PAGE) on; `next` is null after the last. */
  getSessionNodesPage(sessionId: SessionId, after: NodePagePosition, limit: number): { nodes: NodeSummary[]; next: NodePagePosition | null };
  getNode(nodeId: string): StoredNode | null;
  /** The node's stored line (cut at the raw limit) and its full length, without the rest of getNode's answer. */
  getNodeLine(nodeId: string): { readonly raw: Buffer; readonly rawBytes: number } | null;
  /**
   * Per node of these sessions whose result line the import kept the ids of (migration 041, db/result-ids.ts): the
   * tool_use_ids of its tool_result blocks. A node not in the map has none kept: read its line.
   */
  storedResultIds(sessionIds: readonly SessionId[]): ReadonlyMap<string, readonly string[]>;
  /** Every fork, continuation and cleared-context link between sessions (migration 014). */
  lineageLinks(): LineageLink[];
  /** Root → node by parents, across sessions (a fork's shared prefix). */
  nodePath(nodeId: string): NodeSummary[];
  /** The nodes first stored from this transcript file (lines it shares with earlier files belong to those). */
  getNodeIdsOfFile(path: string): string[];
  getToolCalls(node: StoredNode): StoredToolCall[];
  getRecords(nodeId: string): StoredRecord[];
  /** The session's records of these 2026 types (folder changes, content replacements), in file order. */
  getSessionRecords(sessionId: SessionId, types: readonly SessionRecordType[]): SessionRecord[];
  /** Every stored line of the session (its nodes and its files' records) in file order, streamed. */
  forEachSessionLine(sessionId: SessionId, onLine: (line: StoredLine) => void): void;
  /** The files of a session's format report: each one's kept tally, or whether its stored lines must be counted (format-counts.ts). */
  formatCountParts(sessionId: SessionId): FormatCountPart[];
  /** Up to `limit` of the session's stored lines of one file after `cursor`, in file order. */
  readFormatLines(sessionId: SessionId, part: FormatCountPart, cursor: FormatCountCursor, limit: number): { readonly lines: StoredLine[]; readonly cursor: FormatCountCursor; readonly done: boolean };
  /**
   * Reads the lines stored after `cursor` and keeps `complete(them)`, the session's tally of the file, in one write
   * transaction; null when the store cannot be written (read-only, busy): nothing is kept, the caller reads the rest.
   */
  finishFormatCount(sessionId: SessionId, part: FormatCountPart, cursor: FormatCountCursor, complete: (tail: readonly StoredLine[]) => FileTally): FileTally | null;
  /** The session a file's nodes were grouped into. */
  sessionOfFile(path: string): SessionId | null;
  /** Every transcript file imported so far (live tail watches them). */
  transcriptFiles(): string[];
  /** The file's session was deleted (migration 024): an import skips it unless its tombstone is cleared. */
  isDeletedFile(path: string): boolean;
  /** The nodes carrying a tool call and its result, when either is imported. */
  findToolCall(toolUseId: string): ToolCallNodes | null;

  // --- manual snapshots (migration 004)
  recordSnapshot(record: SnapshotRecord): void;
  /** The snapshot known by this node id, or null when the node is not a snapshot. */
  getSnapshotByNode(nodeId: string): SnapshotRecord | null;
  /** The session's snapshots in the order they were taken. */
  getSessionSnapshots(sessionId: SessionId): SnapshotRecord[];
  /** For each session that has snapshots, a string that changes whenever one is added or removed. */
  snapshotVersions(): Map<SessionId, string>;
  /** Hook snapshots taken after this tool call. */
  getSnapshotsByToolUse(toolUseId: string): SnapshotRecord[];
  /** The most recently active session that ran in `dir` (its project), if any. */
  sessionOfProject(dir: string): SessionId | null;

  // --- full-text
  /** Best of the newest matches first; filters narrow it (search.ts). */
  search(query: string, limit: number, offset?: number, filters?: SearchFilters): SearchHit[];
  /** How many nodes match `query`, counted up to `cap`. */
  countSearch(query: string, cap: number, filters?: SearchFilters): { total: number; capped: boolean };
  /** One page of `search` with its total counted up to `cap` (cheaper than the two apart). */
  searchPage(query: string, options: { limit: number; offset: number; cap: number; filters?: SearchFilters }): SearchPage;
  /** Nodes indexed so far and all stored: searches answer from the indexed part. */
  indexProgress(): SearchIndexProgress;
  /**
   * Indexes up to `rows` more nodes; returns how many it consumed (0 when the index is up to date). Nodes
   * stored without text (the parser deferred it) get theirs from `derive` (none without it).
   */
  indexNextChunk(rows: number, derive?: DeriveSearchText): number;
  /** The same chunk done in slices of time, its transaction open between them (search.ts IndexChunk). */
  startIndexChunk(rows: number, derive?: DeriveSearchText): IndexChunk;
  pendingIndexRows(): number;
  /** Indexes up to `rows` more nodes indexed before migration 039 again, with their kind×project token; 0 = none left. */
  rewriteFacetsChunk(rows: number, derive?: DeriveSearchText): number;
  pendingFacetRewriteRows(): number;
  /** One bounded step of merging the index into one segment once it has grown enough; 0 when none is left (search.ts). */
  mergeIndexStep(): number;
  /** The merge's steps in slices of time, many in one transaction (search.ts startIndexMerge). */
  startIndexMerge(): IndexChunk;
  /** Compresses up to `rows` more raw lines stored before migration 013; returns how many it consumed (0 = none left). */
  compactNextChunk(rows: number): number;
  pendingCompactionRows(): number;
  /** Counts up to `rows` more lines stored before migration 023 into `node_usage`; returns how many it consumed (0 = none left). */
  backfillUsageChunk(rows: number): number;
  pendingUsageRows(): number;
  /** The newest stored rows, before an import that stores its raw lines as read (`compressRaw` false). */
  compactionMark(): CompactionMark;
  /** After it: the background compaction compresses the rows stored since `mark`. */
  compactLater(mark: CompactionMark): void;

  close(): void;
  /**
   * The connections, for the other stores in electron/db/ (operation journal, forks) that share this file and
   * its migrations. Nothing outside electron/db/ uses it.
   */
  readonly handles: DatabaseHandles;
}

export function openSessionStore(path: string, options: OpenDatabaseOptions = {}): SessionStore {
  const db = openDatabase(path, options);
  const importStatements = prepareImportStatements(db.write);
  const linkStatements = prepareLinkStatements(db.write);
  const indexStatements = prepareIndexStatements(db.write);
  const compactionStatements = prepareCompactionStatements(db.write);
  const usageBackfill = prepareUsageBackfill(db.write);
  const facetRewrite = prepareFacetRewrite(db.write);
  const sessionQueries = prepareSessionQueries(db.read);
  const lineageQueries = prepareLineageQueries(db.read);
  const nodeQueries = prepareNodeQueries(db.read);
  const sessionRecordQueries = prepareSessionRecordQueries(db.read);
  // Passes over a whole session (the reconstruction's lines, records and result ids, a session's nodes in pages,
  // every line of it for an export or a count) read on the connection that maps nothing (database.ts, bulk): the
  // pages a mapping touched stay in the RSS.
  const sessionLineQueries = prepareSessionLineQueries(db.bulk);
  const formatCountQueries = prepareFormatCountQueries(db.bulk);
  const resultIdQueries = prepareResultIdQueries(db.bulk);
  const pageQueries = db.bulk === db.read ? sessionQueries : prepareSessionQueries(db.bulk);
  const recordQueries = db.bulk === db.read ? nodeQueries : prepareNodeQueries(db.bulk);
  // A snippet past the stored head of a text reads it again from the raw line, as the indexer did.
  const searchQueries = prepareSearchQueries(db.read, deriveSearchText);
  const snapshotWrites = prepareSnapshotWrites(db.write);
  const snapshotQueries = prepareSnapshotQueries(db.read);
  // On the writer: the deletion that wrote a tombstone may not be visible to the reader's snapshot yet.
  const tombstones = prepareTombstoneQueries(db.write);
  // On the writer: it also sees the batches of the import in progress.
  const toolName = db.write.prepare<[string], { name: string }>('SELECT name FROM tool_calls WHERE tool_use_id = ? LIMIT 1');
  const parseStates = prepareParseStateStatements(db.write);
  const transcriptPaths = db.read.prepare<[], { path: string }>('SELECT path FROM files ORDER BY id');
  const linkAll = db.write.transaction(() => linkChangedSessions(linkStatements));
  // One transaction (a savepoint inside a write group): a first read of a big rollout keeps ~1 key a node, and
  // each written on its own was a commit, which wrote 2.5 GB of WAL on a 200 MB rollout.
  const keepState = db.write.transaction((path: string, offset: number, state: string | null, keys?: ResumeKeys) => keepParseState(parseStates, path, offset, state, keys));
  const lineageStatements = prepareLineageStatements(db.write);
  const lineageProblems = db.write.transaction(() => reportMissingLineage(lineageStatements));
  // A read of several statements sees one committed state (a WAL read transaction), never part of a commit
  // another process made between two of them.
  const list = db.read.transaction((request: Parameters<SessionStore['listSessions']>[0]) => listSessions(sessionQueries, request));
  const sessionNodes = db.read.transaction((sessionId: SessionId) => getSessionNodes(sessionQueries, sessionId));

  return {
    fileState: (path) => readFileState(importStatements, path),
    beginFile: (file, options) => beginFileImport(db.write, importStatements, file, options),
    linkChangedSessions: () => linkAll(),
    lineageProblems: () => lineageProblems(),
    parseStateAt: (path, offset) => parseStateAt(parseStates, path, offset),
    parseStateKey: (path, key) => parseStateKey(parseStates, path, key),
    parseStateKeys: (path) => parseStateKeys(parseStates, path),
    keepParseState: (path, offset, state, keys) => keepState(path, offset, state, keys),
    toolNameOf: (toolUseId) => toolName.get(toolUseId)?.name ?? null,
    setBulkMode: (on) => setBulkMode(db.write, on),
    beginWriteGroup: () => beginWriteGroup(db.write),
    commitWriteGroup: (fold) => commitWriteGroup(db.write, fold),
    foldWal: () => foldWal(db.write),
    deferCheckpoints: (on) => deferCheckpoints(db.write, on),
    foldLargeWal: () => void foldLargeWal(db.write),
    listSessions: (request) => list(request),
    getSession: (sessionId) => getSession(sessionQueries, sessionId),
    getSessionNodes: (sessionId) => sessionNodes(sessionId),
    getSessionNodesPage: (sessionId, after, limit) => getSessionNodesPage(pageQueries, sessionId, after, limit),
    getNode: (nodeId) => getStoredNode(nodeQueries, sessionQueries, nodeId),
    getNodeLine: (nodeId) => resultIdQueries.nodeLine(nodeId),
    storedResultIds: (sessionIds) => resultIdQueries.resultIds(sessionIds),
    lineageLinks: () => allLineageLinks(lineageQueries),
    nodePath: (nodeId) => nodePath(lineageQueries, nodeId),
    getNodeIdsOfFile: (path) => sessionQueries.nodeIdsOfFile.all(path).map((row) => row.id),
    getToolCalls: (node) => getStoredToolCalls(nodeQueries, node.seq),
    getRecords: (nodeId) => getAttachedRecords(recordQueries, nodeId),
    getSessionRecords: (sessionId, types) => getSessionRecords(sessionRecordQueries, sessionId, types),
    forEachSessionLine: (sessionId, onLine) => forEachSessionLine(sessionLineQueries, sessionId, onLine),
    formatCountParts: (sessionId) => formatCountParts(formatCountQueries, sessionId),
    readFormatLines: (sessionId, part, cursor, limit) => readFormatLines(formatCountQueries.slices, formatCountQueries.raw, sessionId, part, cursor, limit),
    finishFormatCount(sessionId, part, cursor, complete) {
      try {
        return finishFormatCount(db.write, importStatements.formatCounts, sessionId, part, cursor, complete);
      } catch (error) {
        if (storeErrorOf(error) !== null) return null;
        throw error;
      }
    },
    sessionOfFile: (path) => readFileState(importStatements, path)?.sessionId ?? null,
    transcriptFiles: () => transcriptPaths.all().map((row) => row.path),
    isDeletedFile: (path) => tombstones.isDeleted(path),
    findToolCall: (toolUseId) => findToolCallNodes(snapshotQueries, toolUseId),
    recordSnapshot: (record) => insertSnapshot(snapshotWrites, record),
    getSnapshotByNode(nodeId) {
      const row = snapshotQueries.byNode.get(nodeId);
      return row ? toSnapshotRecord(row) : null;
    },
    getSessionSnapshots: (sessionId) => snapshotQueries.bySession.all(sessionId).map(toSnapshotRecord),
    snapshotVersions: () => new Map(snapshotQueries.versions.all().map((row) => [row.session_id, `${row.count}:${row.last}`])),
    getSnapshotsByToolUse: (toolUseId) => snapshotQueries.byToolUse.all(toolUseId).map(toSnapshotRecord),
    sessionOfProject: (dir) => snapshotQueries.sessionOfProject.get(dir)?.id ?? null,
    search: (query, limit, offset, filters) => searchNodes(searchQueries, query, limit, offset, filters),
    countSearch: (query, cap, filters) => countSearchHits(searchQueries, query, cap, filters),
    searchPage: (query, options) => searchPage(searchQueries, query, options),
    indexProgress: () => indexProgress(indexStatements),
    indexNextChunk: (rows, derive) => indexNextChunk(db.write, indexStatements, rows, derive),
    startIndexChunk: (rows, derive) => startIndexChunk(db.write, indexStatements, rows, derive),
    pendingIndexRows: () => pendingIndexRows(indexStatements),
    rewriteFacetsChunk: (rows, derive) => rewriteFacetsChunk(db.write, facetRewrite, rows, derive),
    pendingFacetRewriteRows: () => pendingFacetRewriteRows(facetRewrite),
    mergeIndexStep: () => mergeIndexStep(db.write, indexStatements),
    startIndexMerge: () => startIndexMerge(db.write, indexStatements),
    compactNextChunk: (rows) => compactNextChunk(db.write, compactionStatements, rows),
    pendingCompactionRows: () => pendingCompactionRows(compactionStatements),
    backfillUsageChunk: (rows) => backfillUsageChunk(db.write, usageBackfill, rows),
    pendingUsageRows: () => pendingUsageRows(usageBackfill),
    compactionMark: () => compactionMark(compactionStatements),
    compactLater: (mark) => compactLater(db.write, compactionStatements, mark),
    close: () => db.close(),
    handles: db,
  };
}
