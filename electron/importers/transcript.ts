/**
 * The boundary between a format's parser (electron/importers/<format>/) and the store (electron/db/).
 * A parser streams a transcript file and emits ParsedNode / ParsedRecord / ImportProblem; the store
 * dedupes nodes by sourceId, groups files into sessions, pairs tool calls with results and indexes text.
 */
import type { LineVerdict } from './format-doctor-intake';
import type { GhostSnapshotMiss, ImportProblem, NodeKind, NodeSummary, SourceFormat, TokenUsage } from '../../shared/model';

/** A transcript file found on disk, with what its location says about it. */
export interface TranscriptFile {
  readonly format: SourceFormat;
  readonly path: string; // absolute
  readonly size: number;
  readonly mtimeMs: number;
  /** 'subagent' for agent-*.jsonl files (any of the three layouts, FORMATS.md §1.8). */
  readonly role: 'main' | 'subagent';
  /** The session this file belongs to as its location says (file name, or the parent folder for subagents). */
  readonly sessionHint: string | null;
  /** The agent id from the file name (agent-<id>.jsonl), for subagent files. */
  readonly agentId: string | null;
  /** From `agent-<id>.meta.json` beside a subagent file: the agent that spawned this one (nested agents stored flat). */
  readonly parentAgentId?: string | null;
  /** `<runId>` of `subagents/workflows/<runId>/agent-<id>.jsonl`: the workflow run the agent belongs to. */
  readonly workflowRunId?: string | null;
  /** From the same meta file: `agentType: description`, the run's label. */
  readonly agentLabel?: string | null;
}

/** What the store knows of a file from an earlier import (null when it has none). */
export type KnownFile = (path: string) => { readonly size: number; readonly mtimeMs: number; readonly format: string } | null;

/** Where a session's line came from when it is a copy of another session's (`forkedFrom`, FORMATS issue 13). */
export interface ForkedFrom {
  readonly sessionId: string;
  readonly messageUuid: string;
  /** The copy's own uuid when the fork gave it a new one (the store keeps copy → original for later imports). */
  readonly copyUuid?: string;
  /** How the copying session goes on from the other: a fork (the default) or a continuation (a Codex resume into a new file). */
  readonly kind?: 'continues';
}

/** One transcript line that has a uuid: exactly one node. */
export interface ParsedNode extends LineVerdict {
  readonly sourceId: string;
  readonly parentSourceId: string | null;
  /** compact_boundary's logicalParentUuid. */
  readonly logicalParentSourceId: string | null;
  /** The line's own `sessionId` field. */
  readonly sessionSourceId: string | null;
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  /** One line for the graph, ≤ 120 chars. */
  readonly label: string;
  /**
   * Searchable text (prompt, assistant text, tool names and inputs, result text), bounded to 32 KiB; '' when
   * there is none. null: not extracted during the import (it is off the hot path) — the full-text indexer
   * derives it later from `raw` with the format's own reader (see ./search-text.ts).
   */
  readonly text: string | null;
  /** tool_use blocks on this line. */
  readonly toolUses: readonly { readonly id: string; readonly name: string }[];
  /** tool_result blocks on this line. */
  readonly toolResults: readonly { readonly toolUseId: string; readonly isError: boolean }[];
  /**
   * On a result line (kind tool_result or error) stored whole: the tool_use_ids of its tool_result blocks exactly
   * as the format's effects reader pairs them (db/result-ids.ts). Absent: the reader reads the line itself.
   */
  readonly resultIds?: readonly string[];
  /**
   * The reconstruction behind `sessions.states` reads this line (a prompt, a call that may change files, a file
   * edit's result, as far as the parser knows the call): stored in blocks of their own, which it alone decodes.
   */
  readonly readForStates?: true;
  /** On a Task/Agent result line: toolUseResult.agentId, the join key to the subagent's transcript. */
  readonly spawnedAgentId: string | null;
  /** On the root line of an inline (1.0.x) sidechain: the Task/Agent call it most likely belongs to. */
  readonly spawnedByToolUseId: string | null;
  readonly sidechain: boolean;
  readonly agentId: string | null;
  readonly model: string | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly usage: TokenUsage | null;
  /**
   * With `usage`: the billed reply the line belongs to (`msg:<id>`; null: the line is its own) and the cost the
   * agent reported, when the parser read them from the parsed line; absent, the store reads them from `raw`.
   */
  readonly reply?: { readonly replyKey: string | null; readonly reportedUsd: number | null };
  /** 1-based line number and byte offset of the line's start in its file. */
  readonly line: number;
  readonly offset: number;
  /** The line's bytes, cut at RAW_LIMIT bytes; rawBytes is the full length. */
  readonly raw: Buffer;
  readonly rawBytes: number;
  /**
   * Set on a result line whose call this reading did not see (it was read by an earlier import, or long
   * before): its label lacks the tool name, which the import fills in from the stored call (relabelResult).
   */
  readonly unnamedResultOf?: string;
  /**
   * Set on a copied line of a forked session (`/branch`, `--fork-session`): the line is the parent session's
   * `messageUuid`, so `sourceId` is that uuid and `parentSourceId` the original's parent (one set of nodes).
   */
  readonly forkedFrom?: ForkedFrom;
  /** On a forked subagent's root: the parent's node it inherits its context from (`fork-context-ref`). */
  readonly contextParentSourceId?: string;
  /**
   * On a session's first node, when the format names the session it came from in another file (Codex
   * `forked_from_id`, `parent_thread_id`): the store links the two sessions (lineage-links.ts) even when the
   * other's rollout was not found to match the shared prefix.
   */
  readonly linkedSession?: { readonly kind: 'fork-of' | 'continues' | 'subagent'; readonly sessionSourceId: string };
}

/** A line without a uuid (summary, file-history-snapshot, queue-operation, …), kept beside what it references. */
export interface ParsedRecord extends LineVerdict {
  readonly type: string;
  /** The node it references (summary.leafUuid, file-history-snapshot.messageId), or null. */
  readonly refSourceId: string | null;
  /** For a `summary` record: the title text. */
  readonly summary: string | null;
  readonly sessionSourceId: string | null;
  /** A `continued-in` record: the session went on (moved to the background) under this id. */
  readonly continuedInSessionId?: string;
  readonly line: number;
  readonly offset: number;
  readonly raw: Buffer;
  readonly rawBytes: number;
}

export interface ParseSink {
  node(node: ParsedNode): void;
  record(record: ParsedRecord): void;
  problem(problem: ImportProblem): void;
}

export interface ParseOptions {
  /** Resume point: byte offset of the first unread line and its 1-based line number. */
  readonly startOffset: number;
  readonly startLine: number;
  /**
   * What the parser kept when an earlier import stopped at `startOffset` (that import's `ParseResult.resumeState`),
   * so a format whose lines depend on the ones before (Codex: a step's parent, a call's name) goes on from there
   * instead of reading the file from its start. Null or absent: none; the parser checks it still fits the file.
   */
  readonly resumeState?: string | null;
  /**
   * The keyed part of that state (`ParseResult.resumeKeys`), looked up one key at a time as the lines need it:
   * a state that grows with the file (Codex: every call id seen) would otherwise be read and written whole on
   * every append. Given with `resumeState` only; null: no value was kept under the key.
   */
  readonly resumeKey?: (key: string) => string | null;
  readonly signal?: AbortSignal;
  /** Called with bytes read so far in this file, at most every chunk. */
  readonly onBytes?: (bytesRead: number) => void;
}

export interface ParseResult {
  /** Offset just after the last complete line (a trailing partial line is left for the next import). */
  readonly endOffset: number;
  /** Line number the next line will have. */
  readonly endLine: number;
  /**
   * What the next import needs to go on from `endOffset` (kept with the file, given back as
   * `ParseOptions.resumeState`); null: nothing fits (the next import reads from the start). Absent: the format
   * resumes from the offset alone (Claude Code).
   */
  readonly resumeState?: string | null;
  /**
   * Keys whose values this read set (beside `resumeState`): kept with the file, given back through
   * `ParseOptions.resumeKey`. `whole`: the read did not go on from kept keys (it read from the start), so these
   * replace every key kept; else they are added to them.
   */
  readonly resumeKeys?: ResumeKeys;
}

export interface ResumeKeys {
  readonly whole: boolean;
  readonly entries: readonly (readonly [key: string, value: string])[];
}

/** Lines longer than this keep only their first RAW_LIMIT bytes in the store. */
export const RAW_LIMIT = 4 * 1024 * 1024;

/*
 * File effects: what a step did to files, in one shape every format fills (its importer's `readEffects`) and
 * the reconstruction (electron/snapshots/reconstruct) and the side-effect classifier read without knowing the
 * format. Per step: a file's whole content before and/or after, a patch (numbered hunks, string replacements,
 * or hunks found by their context lines), or "unknown since" (the step may have written files unrecorded).
 */

/** A file's content that the transcript does not tell. A symbol, so no real content can be mistaken for it. */
export const UNKNOWN_CONTENT: unique symbol = Symbol('unknown content');
export type UnknownContent = typeof UNKNOWN_CONTENT;
/** A file's content: text, null when the file does not exist, or unknown. */
export type FileContent = string | null | UnknownContent;

/** A hunk placed by line numbers (jsdiff `structuredPatch`, a unified diff's `@@ -a,b +c,d @@`). */
export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** A hunk placed by its context (Codex `apply_patch`): after the `@@ <context>` line, the old lines are replaced. */
export interface ContextHunk {
  /** The `@@` line's text, searched for first; null for a bare `@@`. */
  readonly context: string | null;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
  /** `*** End of File`: the old lines are the file's last lines. */
  readonly endOfFile: boolean;
}

export interface StringReplacement {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/** Where an effect's pre-state came from (how much to trust it). */
export type BeforeSource =
  | 'originalFile' // Edit / Write: the whole pre-edit file
  | 'originalFileContents' // MultiEdit's name for it
  | 'create' // Write type:"create" (or originalFile: null): the file did not exist
  | 'reverse-patch' // the written content with structuredPatch undone
  | 'notebook' // NotebookEdit's original_file
  | 'snapshot' // an exact state of the workspace the transcript names (Codex `ghost_snapshot` commit): before = after
  | 'none'; // the step does not tell

/** What one tool call did to one file. */
export interface FileEffect {
  /** The tool as the transcript names it (Edit, Write, apply_patch, …). */
  readonly tool: string;
  readonly toolUseId: string;
  /** Absolute. */
  readonly path: string;
  readonly before: FileContent;
  readonly after: FileContent;
  readonly source: BeforeSource;
  /** Numbered hunks: used only when there are no replacements. */
  readonly patch: readonly PatchHunk[];
  /** String replacements in order: the truth about what an Edit did. */
  readonly replacements: readonly StringReplacement[];
  /** Hunks found by context, applied to the file's state when `after` is unknown ([] keeps the content as it is). */
  readonly contextPatch?: readonly ContextHunk[];
  /** A move: the patch applies to this other path's state (its own effect, later in the list, deletes it). */
  readonly from?: string;
}

/** Why a step may have changed files the transcript does not replay. */
export type MayWriteReason = 'shell' | 'subagent' | 'unrecorded-outcome' | 'unreadable-result' | 'other-tool';

/** What one node did to files. */
export interface StepEffects {
  /** File effects whose outcome is this node, in order. */
  readonly edits: FileEffect[];
  /** Set when the step may have changed files the transcript does not replay. */
  mayWrite: MayWriteReason | null;
  /** Effects of a parallel tool result left hanging beside this node's line, applied first (set by the reconstruction). */
  carried?: FileEffect[];
  /** A ghost snapshot at this node whose commit could not be read (the Files tab says why a file stays unknown). */
  ghostMiss?: GhostSnapshotMiss;
}

export interface SessionEffects {
  /** Per node index; undefined for nodes that did nothing to files. */
  readonly effects: (StepEffects | undefined)[];
  /** Call node index → how many subagent calls it carries (their runs are judged by what those runs did). */
  readonly subagentCalls: ReadonlyMap<number, number>;
  /** Call node index → the nodes carrying its subagent results: they inherit what the subagent runs did. */
  readonly subagentResults: ReadonlyMap<number, readonly number[]>;
}

/** A node's stored line as written, or null when it is not available. */
export type ReadRaw = (nodeId: string) => string | null | Promise<string | null>;

/**
 * The lines of these record types kept beside a node (records: lines that are no step of their own, as
 * ParsedRecord `type`), as written, in file order; [] when none. Some formats tell effects there (Codex
 * `patch_apply_end`, `ghost_snapshot`).
 */
export type ReadRecords = (nodeId: string, types: ReadonlySet<string>) => readonly string[];

/**
 * Records that move a session's folder from where they stand on (Codex `turn_context.cwd`): their types, and
 * the folder one such line names (null: it names none).
 */
export interface FolderRecords {
  readonly types: ReadonlySet<string>;
  folderOf(line: string): string | null;
}

/**
 * The tool_use_ids a result line's tool_result blocks name, as the import kept them (ParsedNode.resultIds);
 * undefined when none were kept for the node: its line must be read.
 */
export type ResultIdsOf = (nodeId: string) => readonly string[] | undefined;

/**
 * What the reader stores in place of each file effect it read, as soon as it read it (the reconstruction keeps
 * the contents once, by id: the whole files an effect carries would otherwise all stay in memory until the end).
 */
export type KeepEffect = (effect: FileEffect) => FileEffect;

/**
 * A format's reader of every node's file effects, from the session's nodes (transcript order) and their lines. With
 * `resultIdsOf`, it may leave unread the result lines whose kept ids tell it all it needs; with `keepEffect`, it
 * stores what that gives for each effect.
 */
export type ReadSessionEffects = (
  nodes: readonly NodeSummary[],
  readRaw: ReadRaw,
  signal: AbortSignal | undefined,
  readRecords?: ReadRecords,
  resultIdsOf?: ResultIdsOf,
  keepEffect?: KeepEffect,
) => Promise<SessionEffects>;

/** One tool call as the side-effect classifier reads it: its input, and the shell command line it ran if any. */
export interface StepCall {
  readonly name: string;
  readonly input: unknown;
  /** The command line a shell call ran (Bash `command`, Codex `cmd` or argv); null for other tools. */
  readonly command: string | null;
}

/** A format's reader of the tool calls on one stored line: call id → call. */
export type ReadStepCalls = (line: string | null) => ReadonlyMap<string, StepCall>;
