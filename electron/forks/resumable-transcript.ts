/**
 * The resumable copy of a Claude Code session up to a fork point (FORMATS.md §1.10): the planned lines,
 * each rewritten in its envelope — `sessionId` to the new id, `cwd` into the fork's folder, `parentUuid`
 * where a line was moved or a neighbour dropped — and in the paths its message names inside the source
 * workspace, which move into the fork's folder (transcript-paths.ts; thinking blocks keep their bytes),
 * then written whole, under a fresh UUID, where `claude --resume <id>` run in the fork's folder finds it.
 *
 * The lines keep their uuids. That is what Claude Code itself does when it forks or resumes into a new file
 * (FORMATS.md §1.5 fact 3), and it is what links the continuation to the fork point: on import, the copy's
 * lines are already stored (the store keeps the first copy of a uuid), so the file joins the fork point's
 * session, and the first new line, whose parentUuid is the copy's last line, hangs below the fork point.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { ArborError } from '../../shared/errors';
import type { CarriedLines } from './carried-records';
import type { ResumablePlan } from './resumable-plan';
import { relocateMessagePaths } from './transcript-paths';
import { rewriteTopLevel, topLevelMembers } from './transcript-line';

export interface TranscriptRewrite {
  /** The new session id (a fresh UUID). */
  readonly sessionId: string;
  /** The workspace the session ran in; `cwd`s inside it move to the same place inside `toDir`. */
  readonly fromDir: string | null;
  readonly toDir: string;
}

/** Old or hand-written lines may lack these; a resumable line has them. */
const ADD_WHEN_MISSING = new Set(['sessionId', 'parentUuid']);

/**
 * The copy's text: one rewritten line per planned line, each ending in a newline, each followed by the
 * records carried after it (content replacements: carried-records.ts).
 */
export function renderResumableTranscript(plan: ResumablePlan, rewrite: TranscriptRewrite, carried: CarriedLines = new Map()): string {
  let text = '';
  for (const { entry, parentUuid } of plan.lines) {
    const values: Record<string, unknown> = { sessionId: rewrite.sessionId, parentUuid };
    // One scan of the line finds every envelope field (lines can be megabytes long).
    const members = topLevelMembers(entry.text);
    const cwdSpan = members.get('cwd');
    const cwd = cwdSpan === undefined ? undefined : (JSON.parse(entry.text.slice(cwdSpan.start, cwdSpan.end)) as unknown);
    if (typeof cwd === 'string') values.cwd = movedCwd(cwd, rewrite.fromDir, rewrite.toDir);
    text += `${relocateMessagePaths(rewriteTopLevel(entry.text, values, ADD_WHEN_MISSING, members), rewrite.fromDir, rewrite.toDir)}\n`;
    for (const line of carried.get(entry.id) ?? []) text += `${line}\n`;
  }
  return text;
}

/** A cwd inside the old workspace maps to the same place in the fork; any other cwd becomes the fork's root. */
export function movedCwd(cwd: string, fromDir: string | null, toDir: string): string {
  if (fromDir === null) return toDir;
  if (cwd === fromDir) return toDir;
  const prefix = fromDir.endsWith(sep) ? fromDir : fromDir + sep;
  return cwd.startsWith(prefix) ? toDir + sep + cwd.slice(prefix.length) : toDir;
}

/**
 * Writes the copy at `path`, which must not exist: to a temporary name first, then linked into place, so
 * Claude Code never sees half a file and an existing transcript is never replaced.
 */
export async function writeResumableTranscript(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temporary, text, { flag: 'wx' });
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ArborError('BAD_REQUEST', `${path} already exists`, { path });
    throw new ArborError('IO', `Cannot write the resumable transcript ${path}: ${String(error)}`, { path });
  } finally {
    await rm(temporary, { force: true });
  }
}
