/**
 * Export and share (issue 15): what the export methods take and give, and the versioned JSON shape an export
 * in `json` format is. Everything here crosses the boundary as JSON and is written into export files, so it
 * holds plain data only. The shape is documented in electron/export/README.md; bump EXPORT_JSON_VERSION
 * whenever a field changes meaning or goes away.
 */
import type { NodeId, NodeKind, SessionId, SessionLink, SourceFormat, ToolOutcome } from './model';

export const EXPORT_FORMATS = ['md', 'html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_JSON_FORMAT = 'arbor-export';
export const EXPORT_JSON_VERSION = 1;

/**
 * One secret the scan found: `id` is stable for the same content (the preview's ids are the write's), so the
 * app's checkboxes and the CLI's `--redactions FILE` name findings by it.
 */
export interface RedactionFinding {
  readonly id: string;
  /** The rule that found it: a secretlint rule id, or `arbor/<name>` for Arbor's own narrow rules. */
  readonly rule: string;
  /** The node it is in (null: the session's title). */
  readonly nodeId: NodeId | null;
  /** Which field of the node: `title`, `text`, `tool Bash input.command`, `tool Bash result`, … */
  readonly field: string;
  /** The text around it with the secret masked: never the secret itself. */
  readonly excerpt: string;
}

/** What the export of a session or branch would hold, before anything is written. */
export interface ExportPreview {
  readonly sessionId: SessionId;
  readonly title: string;
  /** The branch's last node (the export ends there). */
  readonly headNodeId: NodeId | null;
  /** Nodes the export holds (the branch, plus the subagent runs folded under its calls). */
  readonly nodes: number;
  readonly findings: readonly RedactionFinding[];
  /** More findings than the preview lists (PREVIEW_FINDINGS_MAX): the export still redacts every one. */
  readonly findingsCapped: boolean;
  /** A file name for the export, without folder or extension. */
  readonly suggestedName: string;
  /** A folder to write it into (the user's Downloads when there is one, else home). */
  readonly suggestedDir: string;
}

export const PREVIEW_FINDINGS_MAX = 5_000;

export interface ExportRequest {
  /** A session id, or a node id: the branch through that node, as the conversation view shows it. */
  readonly target: string;
}

export interface ExportWriteRequest extends ExportRequest {
  readonly format: ExportFormat;
  /** Absolute path of the file to write. */
  readonly out: string;
  /** Replace a file that is already there (otherwise the export stops with `EXISTS` and writes nothing). */
  readonly overwrite?: boolean;
  /** Finding ids the user chose to leave as they are. */
  readonly keep?: readonly string[];
  /** Write everything unredacted (the CLI's --no-redact). */
  readonly noRedact?: boolean;
}

export interface ExportWritten {
  readonly path: string;
  readonly format: ExportFormat;
  readonly bytes: number;
  readonly nodes: number;
  /** Findings replaced in the file. */
  readonly redacted: number;
  /** Findings left as they are (kept, or --no-redact). */
  readonly kept: number;
}

/** `export.progress`: nodes read so far of the export's total, per phase. */
export interface ExportProgress {
  readonly target: string;
  readonly phase: 'scan' | 'write';
  readonly done: number;
  readonly total: number;
}

// ---- the JSON export (format "arbor-export", version 1) ----

export interface ExportedSession {
  readonly id: SessionId;
  readonly source: SourceFormat;
  readonly title: string;
  readonly project: string | null;
  readonly startedAt: string | null;
  readonly updatedAt: string | null;
}

export interface ExportedToolCall {
  readonly id: string;
  readonly name: string;
  /** `missing`: requested, outcome not recorded. */
  readonly outcome: ToolOutcome;
  readonly input: unknown;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  /** The result's text as recorded (null when there is no result). */
  readonly result: string | null;
}

/** A file a step's tool call wrote, as its input says (what the step asked for; its outcome is the call's). */
export interface ExportedFileEffect {
  readonly path: string;
  readonly action: 'edit' | 'write' | 'add' | 'update' | 'delete' | 'move';
  readonly toolCallId: string;
  /** Where a moved file went. */
  readonly movePath?: string;
}

export type ExportedBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly text: string; readonly redacted: boolean }
  | { readonly type: 'tool_result'; readonly toolUseId: string; readonly text: string; readonly isError: boolean }
  | { readonly type: 'image'; readonly mediaType: string; readonly bytes: number }
  | { readonly type: 'other'; readonly blockType: string };

export interface ExportedNode {
  readonly id: NodeId;
  readonly parentId: NodeId | null;
  readonly kind: NodeKind;
  readonly timestamp: string | null;
  readonly model: string | null;
  /** Set on the nodes of a subagent run: the run's root node (they follow the call that spawned it). */
  readonly agentRun: NodeId | null;
  /** "branch 2 of 3" when the node starts one branch of a branch point. */
  readonly branch: { readonly index: number; readonly of: number } | null;
  /** A tool result answering a call shown on an earlier node (Markdown and HTML draw it under the call). */
  readonly resultOf: string | null;
  readonly label: string;
  readonly blocks: readonly ExportedBlock[];
  readonly toolCalls: readonly ExportedToolCall[];
  readonly fileEffects: readonly ExportedFileEffect[];
}

/** The JSON export's head: everything before `nodes`. */
export interface ExportedHead {
  readonly format: typeof EXPORT_JSON_FORMAT;
  readonly version: typeof EXPORT_JSON_VERSION;
  readonly exportedAt: string;
  readonly arborVersion: string;
  readonly session: ExportedSession;
  /** The branch exported: its last node, and the node the export was asked for (null for a session). */
  readonly branch: { readonly head: NodeId | null; readonly through: NodeId | null };
  /** Forks, continuations and the session before a cleared context. */
  readonly links: readonly SessionLink[];
  /** How many findings were replaced by `[REDACTED …]` (0 with --no-redact). */
  readonly redacted: number;
}

export interface ExportedDocument extends ExportedHead {
  readonly nodes: readonly ExportedNode[];
}
