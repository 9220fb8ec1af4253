/**
 * Finds Claude Code transcripts under the given files or folders and says what their location implies
 * (FORMATS.md §1.1, §1.8): a session file, or a subagent file in one of three layouts —
 *   flat      <project>/agent-<id>.jsonl                          (2.0.x; session known only from its lines)
 *   nested    <project>/<session>/subagents/agent-<id>.jsonl      (2.1.x, incl. agent-acompact-*)
 *   workflow  <project>/<session>/subagents/workflows/<wf>/agent-<id>.jsonl
 * Inline 1.0.x sidechains live inside session files and need no discovery.
 * A workflow's `journal.jsonl` (started/result records keyed by agentId, no uuids) is not a transcript and is
 * skipped when walking folders.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { throwIfAborted } from '../../../shared/errors';
import type { ImportProblem } from '../../../shared/model';
import type { TranscriptFile } from '../transcript';
import { readAgentMeta } from './agent-meta';

type Env = Readonly<Record<string, string | undefined>>;

export interface DiscoveredTranscripts {
  readonly files: TranscriptFile[];
  readonly problems: ImportProblem[];
}

/** Where Claude Code keeps transcripts: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function defaultClaudeLocations(homeDir: string, env: Env): string[] {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  if (configDir === undefined || configDir.length === 0) return [join(homeDir, '.claude', 'projects')];
  const expanded = configDir === '~' || configDir.startsWith('~/') ? join(homeDir, configDir.slice(1)) : configDir;
  return [join(expanded, 'projects')];
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
/** Spilled tool outputs (`<session>/tool-results/`) are never transcripts. */
const SKIPPED_FOLDERS = new Set(['tool-results']);

/**
 * Each path may be a transcript file (taken whatever its name) or a folder (searched recursively for
 * `.jsonl`). Missing or unreadable paths become problems (line 0), never throws; only cancellation throws.
 * Order is deterministic: session files first, then subagent files, each sorted by path.
 */
export async function discoverClaudeTranscripts(
  paths: readonly string[],
  options: {
    readonly signal?: AbortSignal;
    /** Which file names a folder walk takes; default `.jsonl` (the importer registry adds other formats' names). */
    readonly fileNames?: (name: string) => boolean;
  } = {},
): Promise<DiscoveredTranscripts> {
  const takes = options.fileNames ?? ((name: string) => name.endsWith('.jsonl'));
  const found = new Map<string, TranscriptFile>();
  const problems: ImportProblem[] = [];
  const visitedFolders = new Set<string>();

  const addFile = async (path: string, known?: Stats): Promise<void> => {
    if (found.has(path)) return;
    try {
      const info = known ?? (await stat(path));
      // Opening a FIFO blocks until a writer comes and a device may never end: refused from stat alone.
      const special = specialFileKind(info);
      if (special !== null) {
        problems.push({ file: path, line: 0, reason: refusedReason(special), notImported: true });
        return;
      }
      const place = classifyTranscriptPath(path);
      const meta = place.role === 'subagent' ? await readAgentMeta(path) : {};
      found.set(path, { format: 'claude-code', path, size: info.size, mtimeMs: info.mtimeMs, ...place, ...meta });
    } catch (error) {
      problems.push({ file: path, line: 0, reason: ioReason(error), notImported: true });
    }
  };

  const walk = async (folder: string): Promise<void> => {
    throwIfAborted(options.signal);
    let entries: Dirent[];
    try {
      const real = await realpath(folder);
      if (visitedFolders.has(real)) return; // a symlink loop, or the same folder given twice
      visitedFolders.add(real);
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      problems.push({ file: folder, line: 0, reason: ioReason(error), notImported: true });
      return;
    }
    entries.sort((a, b) => compare(a.name, b.name));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      let special = specialFileKind(entry);
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(path);
          isFolder = target.isDirectory();
          isFile = target.isFile();
          special = specialFileKind(target);
        } catch {
          continue; // a dangling link is not a transcript
        }
      }
      // Skipped without being opened (a FIFO would block the walk), and said so: the user may wonder.
      if (special !== null && takes(entry.name)) problems.push({ file: path, line: 0, reason: refusedReason(special) });
      else if (isFolder && !SKIPPED_FOLDERS.has(entry.name)) await walk(path);
      else if (isFile && takes(entry.name) && !isWorkflowJournal(path)) await addFile(path);
    }
  };

  for (const given of paths) {
    throwIfAborted(options.signal);
    const path = resolve(given);
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      problems.push({ file: path, line: 0, reason: ioReason(error), notImported: true });
      continue;
    }
    if (info.isDirectory()) await walk(path);
    else await addFile(path, info);
  }

  const files = [...found.values()].sort(
    (a, b) => (a.role === b.role ? 0 : a.role === 'main' ? -1 : 1) || compare(a.path, b.path),
  );
  return { files, problems };
}

/** What a transcript's path says about it (see the layouts above). */
export function classifyTranscriptPath(path: string): Pick<TranscriptFile, 'role' | 'sessionHint' | 'agentId'> {
  const name = basename(path);
  const agentId = AGENT_FILE.exec(name)?.[1] ?? null;
  const folders = dirname(path).split(/[\\/]/);
  const subagentsAt = folders.lastIndexOf('subagents');
  if (subagentsAt > 0) {
    return { role: 'subagent', sessionHint: folders[subagentsAt - 1] ?? null, agentId };
  }
  if (agentId !== null) return { role: 'subagent', sessionHint: null, agentId };
  return { role: 'main', sessionHint: name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name, agentId: null };
}

function isWorkflowJournal(path: string): boolean {
  return basename(path) === 'journal.jsonl' && dirname(path).split(/[\\/]/).includes('workflows');
}

type SpecialFileKind = 'a FIFO (named pipe)' | 'a socket' | 'a character device' | 'a block device';

function specialFileKind(info: Stats | Dirent): SpecialFileKind | null {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return null;
}

function refusedReason(kind: SpecialFileKind): string {
  return `not a transcript file: ${kind}, not read`;
}

function ioReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'path not found';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'path not found (a parent is not a folder)';
  return `cannot read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Code-unit order, so the result does not depend on the machine's locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
