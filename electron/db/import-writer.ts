/**
 * The write side of an import: buffers one file's parsed nodes and records and stores them in batches,
 * each batch one transaction over prepared statements. Each node is linked as it lands (link-state.ts),
 * against what is stored, so nothing re-reads the session afterwards. Re-reading a range is idempotent:
 * nodes dedupe by id (the first copy wins), records by (file, offset).
 */
import { basename } from 'node:path';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../importers/transcript';
import type { SessionId } from '../../shared/model';
import { foldLargeWal, type WritableDB } from './database';
import { linkStoredNode, linkSummary, prepareLinkStateStatements, WaitingRefs } from './link-state';
import { TITLE_RECORD_TYPES } from './session-title';
import { prepareVariantStatements, variantProblem, VARIANT_RECORD } from './node-variants';
import type { ImportProblem } from '../../shared/model';
import { fileSessionIdentity, forkParentSession, linkDeclaredSession, linkLineage, prepareLineageStatements, resolveRenamedCopies } from './lineage-links';
import { RAW_PLAIN } from './raw-line';
import { BlockPacker, prepareBlockWrites, RAW_IN_BLOCK } from './raw-blocks';
import type { StoredRawColumns } from './raw-line-reader';
import { claudeReplyFacts, prepareUsageWrites, storeReplies, type CountedReply } from './usage-replies';
import { FormatCountBatch, giveWaitingCounts, prepareFormatCountWrites } from './format-counts';
import { prepareResultIdWrites } from './result-ids';
import { BATCH_LINES, batchBytesOf, batchIsFull, FIRST_BATCH_LINES } from './import-batches';
import { BlocksAhead, type BlockAhead } from './blocks-ahead';

/**
 * Recent node ids of the file and their seq: most parents are a few lines up, so they resolve without a
 * lookup; bounded so a multi-GB file does not keep every id in memory (older ones are looked up).
 */
const RECENT_IDS = 65_536;
/** A Codex step is its own reply: its turn's last_token_usage, given to it once by the importer. */
const NO_REPLY_KEY = { replyKey: null, reportedUsd: null } as const;
/** A row whose line is in a block keeps no bytes of its own. */
const NO_BYTES = Buffer.alloc(0);

/** What one batch's transaction gathers while its lines are stored, one at a time. */
interface BatchState {
  readonly blocks: BlockPacker | null;
  readonly waiting: WaitingRefs;
  /** Each session's first new node in this batch: its stored graph is dropped from there (migration 026). */
  readonly firstNewLine: Map<SessionId, number>;
  /** Tool calls this batch stored a result for. */
  readonly answered: string[];
  /** The seq of the batch's first stored node (seqs only grow: every node from there on is this batch's). */
  firstSeq: number | null;
  readonly replies: CountedReply[];
  /** Nodes added to the file's own session, and their earliest and latest timestamps. */
  added: number;
  first: string | null;
  last: string | null;
}

/** A row's raw columns: the line's own bytes (a small append's, as read), or its span of a block. */
interface RawRow {
  readonly raw: Buffer;
  readonly codec: number;
  readonly block: number | null;
  readonly start: number | null;
  readonly length: number | null;
}

export interface StoredFileState {
  readonly fileId: number;
  readonly sessionId: SessionId | null;
  readonly size: number;
  readonly mtimeMs: number;
  readonly endOffset: number;
  readonly endLine: number;
  /** The format the file was claimed as when first imported. */
  readonly format: string;
}

export interface FileImportResult {
  /** The session the file's nodes went to (null when the file has no node yet). */
  readonly sessionId: SessionId | null;
  readonly nodesAdded: number;
  /** Lines that repeated a stored uuid with other content (kept as variant records). */
  readonly problems?: readonly ImportProblem[];
}

/** Receives one file's lines (it has the ParseSink's node/record shape); `finish` stores the resume point. */
export interface FileImport {
  node(node: ParsedNode): void;
  record(record: ParsedRecord): void;
  /** Blocks of this file's lines the parse worker compressed ahead (blocks-ahead.ts), before the lines they hold. */
  blocksAhead(blocks: readonly BlockAhead[]): void;
  finish(end: { readonly endOffset: number; readonly endLine: number }): FileImportResult;
}

export function prepareImportStatements(db: WritableDB) {
  return {
    fileState: db.prepare<[string], { id: number; session_id: string | null; size: number; mtime_ms: number; end_offset: number; end_line: number; format: string }>(
      'SELECT id, session_id, size, mtime_ms, end_offset, end_line, format FROM files WHERE path = ?',
    ),
    insertFile: db.prepare<[string, string, string, string | null], { id: number }>(
      'INSERT INTO files (path, format, role, agent_id, format_counted) VALUES (?, ?, ?, ?, 1) RETURNING id',
    ),
    formatCounted: db.prepare<[number], { format_counted: number }>('SELECT format_counted FROM files WHERE id = ?'),
    finishFile: db.prepare<[number, number, number, number, string | null, number]>(
      'UPDATE files SET size = ?, mtime_ms = ?, end_offset = ?, end_line = ?, first_cwd = coalesce(first_cwd, ?) WHERE id = ?',
    ),
    setFileSession: db.prepare<[string, number]>('UPDATE files SET session_id = ? WHERE id = ?'),
    setFirstCwd: db.prepare<[string, number]>('UPDATE files SET first_cwd = ? WHERE id = ? AND first_cwd IS NULL'),
    knownNodes: db.prepare<[string], { id: string; session_id: string }>(
      'SELECT id, session_id FROM nodes WHERE id IN (SELECT value FROM json_each(?))',
    ),
    alias: db.prepare<[string], { session_id: string }>('SELECT session_id FROM session_aliases WHERE alias = ?'),
    insertAlias: db.prepare<[string, string]>('INSERT OR IGNORE INTO session_aliases (alias, session_id) VALUES (?, ?)'),
    insertSession: db.prepare<[string, string, string]>('INSERT OR IGNORE INTO sessions (id, source, title) VALUES (?, ?, ?)'),
    insertNode: db.prepare(
      `INSERT OR IGNORE INTO nodes (id, session_id, file_id, line, offset, parent_source_id, parent_id,
         logical_parent_source_id, kind, timestamp, label, sidechain, agent_id, model, spawned_agent_id,
         spawned_by_tool_use_id, raw_bytes, raw, raw_codec, text, raw_block, raw_start, raw_length)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertCall: db.prepare<[number, number, string, string]>(
      'INSERT OR IGNORE INTO tool_calls (node_seq, ordinal, tool_use_id, name) VALUES (?, ?, ?, ?)',
    ),
    insertResult: db.prepare<[string, number, number]>(
      'INSERT OR IGNORE INTO tool_results (tool_use_id, node_seq, is_error) VALUES (?, ?, ?)',
    ),
    // What the nodes' insert trigger did before migration 026, once per session and batch (see its file).
    dropGraphSegmentsFrom: db.prepare<[string, number, number]>(
      'DELETE FROM session_graph_segments WHERE session_id = ? AND (last_file, last_line) >= (?, ?)',
    ),
    // And what the tool results' insert trigger did: a result changes its call's outcome, wherever the call is.
    // Only calls stored before the batch (node_seq below its first): the segments of the batch's own nodes, its calls'
    // among them, went by the statement above. Looking those up too (each call's node by its seq) was ~9 µs a result,
    // 0.2-0.3 s on a 239 MB transcript (issue 12).
    dropGraphSegmentsOfCalls: db.prepare<[string, number]>(
      `DELETE FROM session_graph_segments WHERE id IN (
         SELECT g.id FROM json_each(?) AS answered JOIN tool_calls c ON c.tool_use_id = answered.value AND c.node_seq < ?
           JOIN nodes n ON n.seq = c.node_seq
           JOIN session_graph_segments g ON g.session_id = n.session_id AND (g.last_file, g.last_line) >= (n.file_id, n.line))`,
    ),
    insertSpawn: db.prepare<[string, string]>('INSERT OR IGNORE INTO agent_spawns (agent_id, tool_use_id) VALUES (?, ?)'),
    insertRecord: db.prepare(
      `INSERT OR IGNORE INTO records (file_id, offset, line, type, ref_source_id, ref_by_key, summary, raw, raw_codec, raw_bytes, raw_block, raw_start, raw_length)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addToSession: db.prepare<{ session: string; added: number; first: string | null; last: string | null }>(
      `UPDATE sessions SET node_count = node_count + @added, dirty = 1,
         started_at = CASE WHEN @first IS NOT NULL AND (started_at IS NULL OR @first < started_at) THEN @first ELSE started_at END,
         updated_at = CASE WHEN @last IS NOT NULL AND (updated_at IS NULL OR @last > updated_at) THEN @last ELSE updated_at END
       WHERE id = @session`,
    ),
    link: prepareLinkStateStatements(db),
    variants: prepareVariantStatements(db),
    lineage: prepareLineageStatements(db),
    usage: prepareUsageWrites(db),
    blocks: prepareBlockWrites(db),
    formatCounts: prepareFormatCountWrites(db),
    resultIds: prepareResultIdWrites(db),
  };
}
export type ImportStatements = ReturnType<typeof prepareImportStatements>;

export function readFileState(statements: ImportStatements, path: string): StoredFileState | null {
  const row = statements.fileState.get(path);
  if (!row) return null;
  return {
    fileId: row.id,
    sessionId: row.session_id,
    size: row.size,
    mtimeMs: row.mtime_ms,
    endOffset: row.end_offset,
    endLine: row.end_line,
    format: row.format,
  };
}

export interface FileImportOptions {
  /**
   * Called after each batch is committed (between transactions: the store may be written, e.g. linked), with
   * the batch's size (its lines' characters, as BATCH_BYTES counts them).
   */
  readonly onBatchStored?: (batchBytes: number) => void;
  /** False: raw lines are stored as read, one a row, compressed later in the background (a small append; raw-line.ts). */
  readonly compressRaw?: boolean;
  /**
   * True (the default): the file's first batch is FIRST_BATCH_LINES, so a big file's session is stored a moment
   * after the import reaches it. A file smaller than a batch is read in well under a second either way, and its
   * small first batch was a commit of its own that wrote every page of the random-keyed indexes again (issue 12).
   */
  readonly smallFirstBatch?: boolean;
  /**
   * True: a batch written inside an open write group (a big file's, import-sessions.ts) is no savepoint of its own.
   * A savepoint's journal keeps, in memory (temp_store), the old copy of every page the batch touches that the
   * group already held: every page of the random-keyed indexes, ~60 MB at 2.5 GB. A batch that fails then rolls
   * the whole group back: its batches are read again by the next import, as after a crash.
   */
  readonly unsavedInGroup?: boolean;
}

/** A transaction of its own outside a write group; inside one, no savepoint: a failure rolls the group back (FileImportOptions.unsavedInGroup). */
function unsavedInGroup(db: WritableDB) {
  return <A extends unknown[]>(work: (...args: A) => void) => {
    const alone = db.transaction(work);
    return (...args: A): void => {
      if (!db.inTransaction) return alone(...args);
      try {
        work(...args);
      } catch (error) {
        if (db.inTransaction) db.prepare('ROLLBACK').run();
        throw error;
      }
    };
  };
}

export function beginFileImport(db: WritableDB, statements: ImportStatements, file: TranscriptFile, options: FileImportOptions = {}): FileImport {
  const existing = readFileState(statements, file.path);
  return new FileImportWriter(db, statements, file, existing?.fileId ?? null, existing?.sessionId ?? null, options, options.compressRaw ?? true);
}

class FileImportWriter implements FileImport {
  private nodes: ParsedNode[] = [];
  private records: { readonly record: ParsedRecord; readonly ref: string | null }[] = [];
  private batchBytes = 0;
  private nodesAdded = 0;
  private firstCwd: string | null = null;
  private firstCwdStored = false;
  /** Two generations of recent ids (dropping a whole old one is O(1); deleting a Map's oldest key one by one is not). */
  private recent = new Map<string, number>();
  private older = new Map<string, number>();
  private readonly aliases = new Set<string>();
  private lastNodeId: string | null = null;
  private readonly problems: ImportProblem[] = [];
  /** The session id this (main) file is, by its name or most of its lines (lineage-links.ts); null: not worked out. */
  private identity: string | null = null;
  private batchLines: number;
  private readonly onBatchStored: ((batchBytes: number) => void) | null;
  private readonly flushBatch: () => void;
  private readonly finishInOne: (end: { readonly endOffset: number; readonly endLine: number }) => void;
  /** The file's row, inserted by the first transaction that writes: its own commit rewrote the files' pages once more. */
  private storedFileId: number | null;
  /** The stored lines of the batch, for the format report's counts (format-counts.ts). */
  private readonly formatCounts = new FormatCountBatch();
  private readonly formatCounted: boolean;
  /** Blocks the parse worker compressed ahead, and the offset of the batch's last line (those before it are stale). */
  private readonly ahead = new BlocksAhead();
  private lastOffset = -1;

  constructor(
    private readonly db: WritableDB,
    private readonly statements: ImportStatements,
    private readonly file: TranscriptFile,
    fileId: number | null,
    private sessionId: SessionId | null,
    options: FileImportOptions,
    private readonly compressRaw: boolean,
  ) {
    this.storedFileId = fileId;
    // A file not stored yet gets its row with format_counted = 1 (insertFile): each of its lines is counted as stored.
    this.formatCounted = fileId === null || statements.formatCounted.get(fileId)?.format_counted === 1;
    this.onBatchStored = options.onBatchStored ?? null;
    this.batchLines = (options.smallFirstBatch ?? true) ? FIRST_BATCH_LINES : BATCH_LINES;
    const transaction = options.unsavedInGroup === true ? unsavedInGroup(db) : db.transaction.bind(db);
    this.flushBatch = this.undoingFileId(transaction(() => this.writeBatch()));
    // The last batch and the file's resume point commit together: each commit writes the pages it touched again.
    this.finishInOne = this.undoingFileId(transaction((end: { readonly endOffset: number; readonly endLine: number }) => {
      if (this.nodes.length > 0 || this.records.length > 0) this.writeBatch();
      this.statements.finishFile.run(this.file.size, this.file.mtimeMs, end.endOffset, end.endLine, this.firstCwd, this.fileId);
    }));
    // A file read again (appended to) is the session it was stored as, under the id its name gives.
    if (file.role === 'main' && sessionId !== null) this.identity = fileSessionIdentity(file.sessionHint, [sessionId]);
  }

  node(node: ParsedNode): void {
    this.nodes.push(node);
    this.lastNodeId = node.sourceId;
    // A fork's copies of its source's lines ran in the source's folder: the file's project is where its own
    // steps run (a Codex fork Arbor wrote in another folder, whose resume command says `cd <folder>`).
    if (this.firstCwd === null && node.cwd !== null && node.forkedFrom === undefined) this.firstCwd = node.cwd;
    this.lastOffset = node.offset;
    this.batchBytes += batchBytesOf(node);
    if (batchIsFull(this.nodes.length + this.records.length, this.batchBytes, this.batchLines)) this.flush();
  }

  record(record: ParsedRecord): void {
    // Lines without a uuid belong to what they name, else to the node before them in the file.
    this.records.push({ record, ref: record.refSourceId ?? this.lastNodeId });
    this.lastOffset = record.offset;
    this.batchBytes += batchBytesOf(record);
    if (batchIsFull(this.nodes.length + this.records.length, this.batchBytes, this.batchLines)) this.flush();
  }

  blocksAhead(blocks: readonly BlockAhead[]): void {
    if (this.compressRaw) this.ahead.offer(blocks);
  }

  finish(end: { readonly endOffset: number; readonly endLine: number }): FileImportResult {
    const batch = this.nodes.length > 0 || this.records.length > 0;
    this.finishInOne(end);
    if (batch) this.batchStored();
    return { sessionId: this.sessionId, nodesAdded: this.nodesAdded, ...(this.problems.length > 0 ? { problems: this.problems } : {}) };
  }

  /** A transaction that rolled back took the file's row with it. */
  private undoingFileId<A extends unknown[]>(write: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      const before = this.storedFileId;
      try {
        write(...args);
      } catch (error) {
        this.storedFileId = before;
        throw error;
      }
    };
  }

  /** The file's id, its row inserted on first use (inside a write transaction). */
  private get fileId(): number {
    this.storedFileId ??= this.statements.insertFile.get(this.file.path, this.file.format, this.file.role, this.file.agentId)!.id;
    return this.storedFileId;
  }

  private flush(): void {
    if (this.nodes.length === 0 && this.records.length === 0) return;
    this.flushBatch();
    this.batchStored();
  }

  private batchStored(): void {
    foldLargeWal(this.db);
    this.ahead.dropThrough(this.lastOffset);
    const bytes = this.batchBytes;
    this.nodes = [];
    this.records = [];
    this.batchBytes = 0;
    this.batchLines = BATCH_LINES;
    this.onBatchStored?.(bytes);
  }

  private writeBatch(): void {
    const s = this.statements;
    if (this.sessionId === null && this.nodes.length > 0) this.sessionId = this.resolveSession();
    const sessionId = this.sessionId;
    // With the batch, not at the file's end: a session linked while its file still imports (a big file is
    // listed after its first batch) takes its project from here, and no later link may come before the end.
    if (!this.firstCwdStored && this.firstCwd !== null) {
      s.setFirstCwd.run(this.firstCwd, this.fileId);
      this.firstCwdStored = true;
    }
    const batch: BatchState = {
      // The batch's lines go into blocks (raw-blocks.ts), written by the end of this transaction.
      blocks: this.compressRaw ? new BlockPacker(s.blocks, this.fileId, this.ahead) : null,
      waiting: WaitingRefs.among(s.link, this.refsLookedUp()),
      firstNewLine: new Map(),
      answered: [],
      firstSeq: null,
      replies: [],
      added: 0,
      first: null,
      last: null,
    };
    if (sessionId !== null) {
      // One node per call, not the loop's body inline: V8 optimizes (and, on each new path, re-optimizes) a small
      // function instead of this whole one, which cost more compile time than any other function of the import.
      for (const parsed of this.nodes) this.storeNode(parsed, sessionId, batch);
      if (batch.added > 0) s.addToSession.run({ session: sessionId, added: batch.added, first: batch.first, last: batch.last });
      storeReplies(s.usage, batch.replies);
      // Lines come in file order, so a session's first new node of the batch is its earliest.
      for (const [session, line] of batch.firstNewLine) s.dropGraphSegmentsFrom.run(session, this.fileId, line);
      if (batch.answered.length > 0) s.dropGraphSegmentsOfCalls.run(JSON.stringify(batch.answered), batch.firstSeq ?? Number.MAX_SAFE_INTEGER);
    }
    for (const { record, ref } of this.records) this.storeRecord(record, ref, batch);
    batch.blocks?.seal();
    this.formatCounts.store(s.formatCounts, this.fileId, this.formatCounted);
  }

  private storeNode(parsed: ParsedNode, sessionId: SessionId, batch: BatchState): void {
    const s = this.statements;
    const { blocks } = batch;
    const node = resolveRenamedCopies(s.lineage, parsed, (id) => this.seqOf(id) !== null);
    // A fork's copied line is its parent session's node; lines of another session are linked, not joined.
    const owner: SessionId = node.forkedFrom === undefined ? sessionId : forkParentSession(s.lineage, node.forkedFrom.sessionId, this.file.format);
    if (node.forkedFrom !== undefined) linkLineage(s.lineage, sessionId, node.forkedFrom.kind ?? 'fork', owner, node.sourceId);
    linkDeclaredSession(s.lineage, sessionId, node);
    if (node.sessionSourceId !== null && !this.aliases.has(node.sessionSourceId)) {
      this.aliases.add(node.sessionSourceId);
      if (node.forkedFrom === undefined && this.isForeign(node.sessionSourceId)) linkLineage(s.lineage, sessionId, 'follows', node.sessionSourceId, null);
      else s.insertAlias.run(node.sessionSourceId, owner);
    }
    const parentSeq = node.parentSourceId === null ? null : this.seqOf(node.parentSourceId);
    const parentId = parentSeq !== null || node.parentSourceId === node.sourceId ? node.parentSourceId : null;
    // The lines sessions.states reads go into blocks of their own (raw-blocks.ts): it decodes only those.
    const apart = node.readForStates === true;
    const raw = rawRowOf(blocks, owner, node.raw, apart);
    const inserted = s.insertNode.run(
      node.sourceId, owner, this.fileId, node.line, node.offset, node.parentSourceId, parentId,
      node.logicalParentSourceId, node.kind, node.timestamp, node.label, node.sidechain ? 1 : 0, node.agentId,
      // null text: the full-text indexer derives it from raw later ('' = nothing to index).
      node.model, node.spawnedAgentId, node.spawnedByToolUseId, node.rawBytes, raw.raw, raw.codec, node.text,
      raw.block, raw.start, raw.length,
    );
    if (inserted.changes === 0) {
      // A copy of a node already stored (resume / fork replay) adds nothing; a line that says otherwise is kept.
      this.keepVariant(blocks, node);
      return;
    }
    blocks?.add(owner, node.raw, node.offset, apart);
    this.formatCounts.add(owner, node.line, node.raw, node.rawBytes, node);
    this.nodesAdded++;
    if (!batch.firstNewLine.has(owner)) batch.firstNewLine.set(owner, node.line);
    if (owner === sessionId) batch.added++;
    else s.addToSession.run({ session: owner, added: 1, first: node.timestamp, last: node.timestamp });
    const seq = Number(inserted.lastInsertRowid);
    batch.firstSeq ??= seq;
    this.remember(node.sourceId, seq);
    if (node.usage !== null) batch.replies.push({ seq, model: node.model, usage: node.usage, facts: node.reply ?? (this.file.format === 'claude-code' ? claudeReplyFacts(node.raw) : NO_REPLY_KEY) });
    node.toolUses.forEach((use, ordinal) => s.insertCall.run(seq, ordinal, use.id, use.name));
    for (const result of node.toolResults) {
      if (s.insertResult.run(result.toolUseId, seq, result.isError ? 1 : 0).changes > 0) batch.answered.push(result.toolUseId);
    }
    // Only for a line stored whole: a cut one reads as no line at all to the reconstruction (result-ids.ts).
    if (node.resultIds !== undefined && node.rawBytes === node.raw.length) s.resultIds.run(seq, JSON.stringify(node.resultIds));
    const spawnedBy = node.toolResults[0];
    if (node.spawnedAgentId !== null && spawnedBy) s.insertSpawn.run(node.spawnedAgentId, spawnedBy.toolUseId);
    linkStoredNode(s.link, {
      seq,
      id: node.sourceId,
      sessionId: owner,
      parentSourceId: node.parentSourceId,
      parentSeq: node.parentSourceId === node.sourceId ? seq : parentSeq,
      logicalParentSourceId: node.logicalParentSourceId,
      kind: node.kind,
      timestamp: node.timestamp,
      line: node.line,
      spawnedByToolUseId: node.spawnedByToolUseId,
      spawnedAgentId: node.spawnedAgentId,
      toolUseIds: node.toolUses.map((use) => use.id),
      subagentAgentId: this.file.role === 'subagent' ? (this.file.agentId ?? node.agentId) : null,
      contextParentSourceId: node.contextParentSourceId ?? null,
      parentAgentId: this.file.parentAgentId ?? null,
      workflowRunId: this.file.workflowRunId ?? null,
      // Only an agent's own calls can spawn a nested agent (a main-thread call is found through agent_spawns).
      spawnsAgent: this.file.role === 'subagent' && node.toolUses.some((use) => use.name === 'Task' || use.name === 'Agent'),
    }, batch.waiting);
    if (owner === sessionId && node.timestamp !== null) {
      if (batch.first === null || node.timestamp < batch.first) batch.first = node.timestamp;
      if (batch.last === null || node.timestamp > batch.last) batch.last = node.timestamp;
    }
  }

  private storeRecord(record: ParsedRecord, ref: string | null, batch: BatchState): void {
    const s = this.statements;
    const { blocks, waiting } = batch;
    const raw = rawRowOf(blocks, null, record.raw);
    const inserted = s.insertRecord.run(
      this.fileId, record.offset, record.line, record.type, ref, record.refSourceId !== null ? 1 : 0,
      record.summary, raw.raw, raw.codec, record.rawBytes, raw.block, raw.start, raw.length,
    );
    if (inserted.changes > 0) {
      blocks?.add(null, record.raw, record.offset);
      this.formatCounts.add(this.sessionId, record.line, record.raw, record.rawBytes, record);
    }
    if (inserted.changes > 0 && record.type === 'summary' && record.refSourceId !== null && record.summary) {
      linkSummary(s.link, Number(inserted.lastInsertRowid), record.refSourceId, waiting);
    } else if (inserted.changes > 0 && record.summary && this.sessionId !== null && TITLE_RECORD_TYPES.has(record.type)) {
      s.link.summaryStale.run(this.sessionId); // a custom or AI title: the link run looks the title up again
    }
    const earlier = this.sessionId ?? record.sessionSourceId;
    if (record.continuedInSessionId !== undefined && earlier !== null) linkLineage(s.lineage, record.continuedInSessionId, 'continues', earlier, null);
  }

  /** What linking the batch's nodes looks up in `link_waiting`: their ids, calls, spawned agents and the file's agent. */
  private refsLookedUp(): string[] {
    const refs: string[] = [];
    const subagent = this.file.role === 'subagent';
    for (const node of this.nodes) {
      refs.push(node.sourceId);
      for (const use of node.toolUses) refs.push(use.id);
      if (node.spawnedAgentId !== null) refs.push(node.spawnedAgentId);
      const agent = subagent ? (this.file.agentId ?? node.agentId) : null;
      if (agent !== null) refs.push(agent);
    }
    return refs;
  }

  /** A line of a session file naming another session than the file's own (the one before a cleared context). */
  private isForeign(lineSession: string): boolean {
    return this.file.role === 'main' && this.identity !== null && lineSession !== this.identity && lineSession !== this.sessionId;
  }

  private keepVariant(blocks: BlockPacker | null, node: ParsedNode): void {
    const unwritten = (row: StoredRawColumns): Buffer | undefined =>
      blocks !== null && row.raw_block !== null ? blocks.openLine({ block: row.raw_block, start: row.raw_start ?? 0, length: row.raw_length ?? 0 }) : undefined;
    const problem = variantProblem(this.statements.variants, node, this.fileId, this.file.path, unwritten);
    if (problem === null) return;
    const raw = rawRowOf(blocks, null, node.raw);
    const inserted = this.statements.insertRecord.run(
      this.fileId, node.offset, node.line, VARIANT_RECORD, node.sourceId, 1, null, raw.raw, raw.codec, node.rawBytes, raw.block, raw.start, raw.length,
    );
    if (inserted.changes > 0) {
      blocks?.add(null, node.raw, node.offset);
      this.formatCounts.add(this.sessionId, node.line, node.raw, node.rawBytes, node);
    }
    this.problems.push(problem);
  }

  /** The seq of a stored node, from the recent ids of this file or else the store (null: not stored yet). */
  private seqOf(id: string): number | null {
    return this.recent.get(id) ?? this.older.get(id) ?? this.statements.link.seqOf.get(id)?.seq ?? null;
  }

  private remember(id: string, seq: number): void {
    this.recent.set(id, seq);
    if (this.recent.size >= RECENT_IDS) {
      this.older = this.recent;
      this.recent = new Map();
    }
  }

  /**
   * A file joins the session of the first node it shares with what is stored (a resume or fork copy),
   * else the session its location or its lines name; otherwise it starts a new one.
   */
  private resolveSession(): SessionId {
    const s = this.statements;
    // A fork's copies are the parent's nodes, and lines naming another session than the file's own are that
    // session's: neither pulls the file into their session.
    const own = this.nodes.filter((node) => node.forkedFrom === undefined);
    const identity = this.file.role === 'main' ? fileSessionIdentity(this.file.sessionHint, own.map((node) => node.sessionSourceId)) : null;
    this.identity = identity;
    const joining = identity === null ? own : own.filter((node) => node.sessionSourceId === null || node.sessionSourceId === identity);
    const ids = joining.map((node) => node.sourceId);
    const known = new Map(s.knownNodes.all(JSON.stringify(ids)).map((row) => [row.id, row.session_id]));
    let sessionId: SessionId | undefined;
    for (const id of ids) {
      sessionId = known.get(id);
      if (sessionId !== undefined) break;
    }
    const lineSession = identity ?? own.find((node) => node.sessionSourceId !== null)?.sessionSourceId ?? null;
    // A session file's lines name their session best (the file may be renamed); a subagent's folder names its parent.
    const ordered = this.file.role === 'main' ? [lineSession, this.file.sessionHint] : [this.file.sessionHint, lineSession];
    const claims = ordered.filter((claim): claim is string => claim !== null);
    for (const claim of claims) {
      if (sessionId !== undefined) break;
      sessionId = s.alias.get(claim)?.session_id;
    }
    if (sessionId === undefined) {
      sessionId = claims[0] ?? basename(this.file.path).replace(/\.jsonl$/i, '');
      s.insertSession.run(sessionId, this.file.format, sessionId);
      s.insertAlias.run(sessionId, sessionId);
    }
    for (const claim of claims) s.insertAlias.run(claim, sessionId);
    s.setFileSession.run(sessionId, this.fileId);
    giveWaitingCounts(s.formatCounts, this.fileId, sessionId);
    // Its file count changed even when every line was stored before (a source whose lines a fork copied).
    s.link.markDirty.run(sessionId);
    return sessionId;
  }
}

/**
 * Where a row's line goes: its span of `owner`'s open block (the row's line is `add`ed once the row is inserted),
 * or, without blocks (a small append, for the background compaction), the line itself as read.
 */
function rawRowOf(blocks: BlockPacker | null, owner: string | null, line: Buffer, apart = false): RawRow {
  if (blocks === null) return { raw: line, codec: RAW_PLAIN, block: null, start: null, length: null };
  const place = blocks.placeOf(owner, line, apart);
  return { raw: NO_BYTES, codec: RAW_IN_BLOCK, block: place.block, start: place.start, length: place.length };
}
