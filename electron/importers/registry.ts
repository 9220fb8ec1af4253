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
  isRolloutFileName,
  isRolloutLine,
  parseCodexRollout,
  readCodexNodeContent,
  rolloutThreadId,
  threadIdFromName,
} from './codex';
import { HEAD_BYTES, headLines, looksBinary, parseJsonObject, readFileHead } from './file-head';
import { readSessionEffects as readClaudeEffects } from '../snapshots/reconstruct/session-effects';
import { claudeStepCalls } from '../snapshots/side-effects/steps-since';
import { codexStepCalls, readCodexEffects } from './codex/file-effects';
import type { ParseOptions, ParseResult, ParseSink, ReadSessionEffects, ReadStepCalls, TranscriptFile } from './transcript';

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
  // Writing a rollout `codex resume` continues is the next increment.
  writesResumableFork: false,
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
 * walk) and gives each to the importer that claims it by content.
 */
export async function discoverTranscripts(
  paths: readonly string[],
  options: { readonly signal?: AbortSignal } = {},
): Promise<{ readonly files: TranscriptFile[]; readonly problems: ImportProblem[] }> {
  const walked = await discoverClaudeTranscripts(paths, { signal: options.signal, fileNames: isRolloutFileName });
  const problems = [...walked.problems];
  const files: TranscriptFile[] = [];
  for (const file of walked.files) {
    throwIfAborted(options.signal);
    let head: Buffer | null;
    try {
      head = await readFileHead(file.path);
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
      files.push({ format: 'codex', path: file.path, size: file.size, mtimeMs: file.mtimeMs, role: 'main', sessionHint: threadId, agentId: null });
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
 * A stored line's content, by the format that wrote it. The stored line carries no format, so its envelope
 * decides: a Codex line is `{timestamp, type, payload}`, every other line is Claude Code's.
 */
export function readAnyNodeContent(raw: string): NodeContent {
  const start = raw.slice(0, 256);
  const importer = codexImporter.claimsLine(start.length < raw.length ? start : raw) ? codexImporter : claudeCodeImporter;
  return importer.readNodeContent(raw);
}
