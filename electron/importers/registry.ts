/**
 * The importers Arbor knows, one per transcript format. Each says which files it claims by their content (a
 * Codex rollout named `agent-*.jsonl` is not a Claude subagent), where the agent keeps them by default, how it
 * parses them, how a stored line reads back, and whether it can write a fork the agent resumes. Discovery hands
 * every file to the importer that claims it; a file nobody claims is a problem naming what it looks like.
 */
import { throwIfAborted } from '../../shared/errors';
import type { ImportProblem, SourceFormat } from '../../shared/model';
import {
  defaultClaudeLocations,
  discoverClaudeTranscripts,
  parseClaudeTranscript,
  readNodeContent as readClaudeNodeContent,
  type NodeContent,
} from './claude-code';
import { claudeSearchText } from './claude-code/search-text';
import {
  codexSearchText,
  defaultCodexLocations,
  headLineage,
  isRolloutFileName,
  isRolloutLine,
  parseCodexRollout,
  readCodexNodeContent,
  rolloutThreadId,
  threadIdFromName,
} from './codex';
import { HEAD_BYTES, headLines, looksBinary, parseJsonObject, readFileHead } from './file-head';
import type { FolderRecords, KnownFile, ParseOptions, ParseResult, ParseSink, ReadSessionEffects, ReadStepCalls, TranscriptFile } from './transcript';
import type { FormatPlace, FormatReport } from '../../shared/format-report';
import { checkTranscriptFile, claudeLineVerdict, FormatDoctor } from './claude-code/format-doctor';
import { checkRolloutFile, codexLineVerdict, CodexFormatDoctor } from './codex/format-doctor';
import type { LineVerdict } from './format-doctor-intake';
import { readSessionEffects as readClaudeEffects } from '../snapshots/reconstruct/session-effects';
import { claudeStepCalls } from '../snapshots/side-effects/steps-since';
import { codexFolderRecords, codexStepCalls, readCodexEffects } from './codex/file-effects';

type Env = Readonly<Record<string, string | undefined>>;

export interface Importer {
  readonly format: SourceFormat;
  /** The agent's name as the app shows it ("Claude Code", "Codex"). */
  readonly agent: string;
  /** What a file of this format is, for problems ("a Codex rollout"). */
  readonly looksLike: string;
  /** True when this line (one of a file's first non-empty lines, possibly cut) is this format's. */
  claimsLine(line: string): boolean;
  defaultLocations(homeDir: string, env: Env): string[];
  parse(file: TranscriptFile, sink: ParseSink, options: ParseOptions & { readonly beforeRead?: () => Promise<void> | void }): Promise<ParseResult>;
  readNodeContent(raw: string): NodeContent;
  searchText(raw: Uint8Array): string;
  /** What each node of a session did to files, in the neutral shape the reconstruction reads. */
  readonly readEffects: ReadSessionEffects;
  /** The tool calls on a stored line, in the neutral shape the side-effect classifier reads. */
  readonly readCalls: ReadStepCalls;
  /** Whether Arbor can write a fork of a session in this format that the agent itself resumes. */
  readonly writesResumableFork: boolean;
  /** The records beside the steps that move the session's folder, when the format has them. */
  readonly folderRecords?: FolderRecords;
  /** A new format doctor (`arbor doctor`, the session header's report), by this importer's own registry of what it models. */
  formatDoctor(): FormatChecker;
  /** The doctor's check of one parsed line, which the parser also runs (the store counts the report as it imports). */
  readonly formatLineVerdict: (value: unknown) => LineVerdict;
}

/** One format's doctor: fed a file, or stored lines one at a time, then asked for its report. */
export interface FormatChecker {
  checkFile(path: string, options: { readonly signal?: AbortSignal; readonly onBytes?: (bytesRead: number) => void }): Promise<void>;
  /** A stored line; `cut` when the store kept only its start. */
  line(bytes: Buffer, place: FormatPlace, totalBytes: number, cut: boolean): void;
  report(): FormatReport;
}

/** Top-level line types of Claude Code transcripts (FORMATS.md §1.2), for lines without a uuid. */
const CLAUDE_LINE_TYPES = new Set([
  'user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'custom-title',
  'agent-name', 'tag', 'attachment', 'last-prompt', 'worktree-state', 'pr-link', 'mode', 'permission-mode', 'ai-title',
  'continued-in', 'result',
]);
const CLAUDE_KEYS = /"(uuid|parentUuid|sessionId|leafUuid|messageId|isSidechain)"\s*:/;

export const claudeCodeImporter: Importer = {
  format: 'claude-code',
  agent: 'Claude Code',
  looksLike: 'a Claude Code transcript',
  claimsLine(line) {
    const value = parseJsonObject(line);
    if (value === null) return CLAUDE_KEYS.test(line);
    if ('payload' in value && !('uuid' in value)) return false;
    return CLAUDE_KEYS.test(line) || (typeof value.type === 'string' && CLAUDE_LINE_TYPES.has(value.type));
  },
  defaultLocations: defaultClaudeLocations,
  parse: (file, sink, options) => parseClaudeTranscript(file, sink, options),
  readNodeContent: readClaudeNodeContent,
  searchText: claudeSearchText,
  readEffects: readClaudeEffects,
  readCalls: claudeStepCalls,
  writesResumableFork: true,
  formatLineVerdict: claudeLineVerdict,
  formatDoctor() {
    const doctor = new FormatDoctor();
    return {
      checkFile: (path, options) => checkTranscriptFile(doctor, path, options),
      line: (bytes, place, totalBytes, cut) => doctor.line(bytes, place, totalBytes, cut),
      report: () => doctor.report(),
    };
  },
};

export const codexImporter: Importer = {
  format: 'codex',
  agent: 'Codex',
  looksLike: 'a Codex rollout',
  claimsLine: isRolloutLine,
  defaultLocations: defaultCodexLocations,
  parse: (file, sink, options) => parseCodexRollout(file, sink, options),
  readNodeContent: readCodexNodeContent,
  searchText: codexSearchText,
  readEffects: readCodexEffects,
  readCalls: codexStepCalls,
  folderRecords: codexFolderRecords,
  // electron/forks/codex/: a new rollout under $CODEX_HOME/sessions that `codex resume <id>` continues.
  writesResumableFork: true,
  formatLineVerdict: codexLineVerdict,
  formatDoctor() {
    const doctor = new CodexFormatDoctor();
    return {
      checkFile: (path, options) => checkRolloutFile(doctor, path, options),
      line: (bytes, place, totalBytes, cut) => doctor.line(bytes, place, totalBytes, cut),
      report: () => doctor.report(),
    };
  },
};

/** Codex first: its envelope is unambiguous, while Claude's claim also accepts a bare `type`. */
export const IMPORTERS: readonly Importer[] = [codexImporter, claudeCodeImporter];

export function importerFor(format: string): Importer | null {
  return IMPORTERS.find((importer) => importer.format === format) ?? null;
}

/** Every importer's default folders, Claude Code's first (the app's first-run offer lists them in this order). */
export function defaultTranscriptLocations(homeDir: string, env: Env): string[] {
  return [claudeCodeImporter, codexImporter].flatMap((importer) => importer.defaultLocations(homeDir, env));
}

/** Which importer's default folder a path is (for `import.locations`); null when it is none of them. */
export function formatOfLocation(path: string, homeDir: string, env: Env): SourceFormat | null {
  return IMPORTERS.find((importer) => importer.defaultLocations(homeDir, env).includes(path))?.format ?? null;
}

export interface Claim {
  readonly importer: Importer | null;
  /** What the file looks like, said in a problem when no importer claims it. */
  readonly looksLike: string;
  readonly lines: readonly string[];
}

/** Empty, blank, or one line still being written (no newline yet, shorter than the head we read). */
function nothingCompleteYet(head: Buffer): boolean {
  if (head.toString('utf8').trim().length === 0) return true;
  return !head.includes(0x0a) && head.length < HEAD_BYTES && !looksBinary(head);
}

/** Which importer claims a file, from its first lines. */
export function claimOf(head: Buffer | null): Claim {
  if (head === null) return { importer: null, looksLike: 'not a transcript (not readable as zstd)', lines: [] };
  if (head.length === 0) return { importer: null, looksLike: 'an empty file, not a transcript (yet)', lines: [] };
  // The lines decide first: a transcript whose head holds a line with invalid UTF-8 (kept and reported,
  // issue 13) was refused whole as "binary data" when the byte test came first.
  const lines = headLines(head);
  for (const line of lines) {
    const importer = IMPORTERS.find((candidate) => candidate.claimsLine(line));
    if (importer !== undefined) return { importer, looksLike: importer.looksLike, lines };
  }
  if (looksBinary(head)) return { importer: null, looksLike: 'not a transcript (binary data)', lines: [] };
  const json = lines.some((line) => parseJsonObject(line) !== null);
  return { importer: null, looksLike: json ? 'JSON lines, not a transcript' : 'not a transcript', lines };
}

/**
 * Finds transcripts of every format under the given files or folders (see discoverClaudeTranscripts for the
 * walk) and gives each to the importer that claims it by content. A file `known` from an earlier import with
 * the same size and mtime keeps its stored format unread: reading a 64 KiB head of every unchanged
 * transcript on every run cost the most on the runs that had least to do.
 */
export async function discoverTranscripts(
  paths: readonly string[],
  options: { readonly signal?: AbortSignal; readonly known?: KnownFile; readonly readHead?: (path: string) => Promise<Buffer | null> } = {},
): Promise<{ readonly files: TranscriptFile[]; readonly problems: ImportProblem[] }> {
  const walked = await discoverClaudeTranscripts(paths, { signal: options.signal, fileNames: isRolloutFileName });
  const problems = [...walked.problems];
  const files: TranscriptFile[] = [];
  const readHead = options.readHead ?? readFileHead;
  for (const file of walked.files) {
    throwIfAborted(options.signal);
    const known = options.known?.(file.path) ?? null;
    if (known !== null && known.size === file.size && known.mtimeMs === file.mtimeMs && importerFor(known.format) !== null) {
      files.push(known.format === 'codex' ? { format: 'codex', path: file.path, size: file.size, mtimeMs: file.mtimeMs, role: 'main', sessionHint: threadIdFromName(file.path), agentId: null } : file);
      continue;
    }
    let head: Buffer | null;
    try {
      head = await readHead(file.path);
    } catch (error) {
      problems.push({ file: file.path, line: 0, reason: `cannot read: ${error instanceof Error ? error.message : String(error)}`, notImported: true });
      continue;
    }
    const claim = claimOf(head);
    if (claim.importer === null && head !== null && nothingCompleteYet(head)) {
      // An agent creates its file before the first line is flushed: an empty file or one half-written line is
      // a transcript not written yet, read again when it grows — not a failed import (it made the corpus
      // import exit 1 over two empty session files).
      problems.push({ file: file.path, line: 0, reason: head.length === 0 ? 'an empty file: nothing to import yet (read again when it grows)' : 'no complete line yet: nothing to import yet (read again when it grows)' });
    } else if (claim.importer === null) {
      problems.push({ file: file.path, line: 0, reason: `no importer claims this file: it looks like ${claim.looksLike}`, notImported: true });
    } else if (claim.importer.format === 'codex') {
      // A rollout is one thread whatever its name: never a Claude subagent file.
      const threadId = rolloutThreadId(claim.lines) ?? threadIdFromName(file.path);
      // A subagent's rollout is read in its parent's session, under the spawning call (codex/lineage.ts).
      const parent = headLineage(claim.lines).parentThreadId;
      files.push({ format: 'codex', path: file.path, size: file.size, mtimeMs: file.mtimeMs, role: parent === null ? 'main' : 'subagent', sessionHint: parent ?? threadId, agentId: parent === null ? null : threadId });
    } else if (file.path.endsWith('.zst')) {
      problems.push({ file: file.path, line: 0, reason: 'a compressed Claude Code transcript: not read (Claude Code never compresses its transcripts)', notImported: true });
    } else {
      files.push(file);
    }
  }
  return { files, problems };
}

export function parseTranscript(
  file: TranscriptFile,
  sink: ParseSink,
  options: ParseOptions & { readonly beforeRead?: () => Promise<void> | void },
): Promise<ParseResult> {
  const importer = importerFor(file.format);
  if (importer === null) throw new Error(`no importer for ${file.format}`);
  return importer.parse(file, sink, options);
}

/**
 * A stored line's content, read by the importer of the format its file was recorded as (`files.format`).
 * Guessing from the line's first characters read a Codex line whose payload mentions `"uuid":` as Claude
 * Code's, and a Claude line shaped `{timestamp, type, payload}` as Codex's; the guess stays only for a line
 * whose format is not known (null, or a format no importer reads any more).
 */
export function readAnyNodeContent(raw: string, format: string | null = null): NodeContent {
  const recorded = format === null ? null : importerFor(format);
  if (recorded !== null) return recorded.readNodeContent(raw);
  const start = raw.slice(0, 256);
  const importer = codexImporter.claimsLine(start.length < raw.length ? start : raw) ? codexImporter : claudeCodeImporter;
  return importer.readNodeContent(raw);
}
