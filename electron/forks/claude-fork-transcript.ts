/**
 * Writes a planned resumable Claude Code transcript where `claude --resume <id>` run in `toDir` finds it: the
 * copied lines (resumable-transcript.ts) with the session's carried records, the source sessions'
 * file-history backups linked under the new id (so `/rewind` works), and, for "Continue from the merge",
 * lines appended after the copy (they get the new id and hang below its last line). A fork and a merge's
 * continuation share this writer. On failure nothing it wrote is left behind.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { SessionStore } from '../db/session-store';
import { claudeConfigDir } from '../snapshots/file-history';
import type { WorkspaceContext } from '../service/workspace-context';
import { carriedRecords } from './carried-records';
import { resumableTranscriptPath } from './claude-projects';
import { copyFileHistory, fileHistoryFolder } from './fork-file-history';
import { restoreFileHistory } from '../service/file-history-archive';
import type { ResumablePlan } from './resumable-plan';
import { renderResumableTranscript, writeResumableTranscript } from './resumable-transcript';

export interface ClaudeTranscriptRequest {
  readonly plan: ResumablePlan;
  /** The session the plan's lines are stored in (its content-replacement records are carried). */
  readonly sessionId: string;
  readonly fromDir: string | null;
  readonly toDir: string;
  /** Lines (JSON text, no newline) written after the copy, given the new session id and the copy's last uuid. */
  readonly append?: (resumeSessionId: string, lastUuid: string | null) => readonly string[];
}

export interface ClaudeTranscriptWritten {
  readonly resumeSessionId: string;
  readonly resume: string;
  readonly transcript: string;
  /** The new session's file-history folder. */
  readonly history: string;
  readonly warnings: readonly string[];
}

type Writer = Pick<WorkspaceContext, 'homeDir' | 'env' | 'objects'> & { readonly store: SessionStore };

export async function writeClaudeForkTranscript(workspace: Writer, request: ClaudeTranscriptRequest, signal: AbortSignal): Promise<ClaudeTranscriptWritten> {
  const { plan } = request;
  const resumeSessionId = randomUUID();
  const transcript = resumableTranscriptPath(workspace.homeDir, workspace.env, request.toDir, resumeSessionId);
  const replacements = workspace.store.getSessionRecords(request.sessionId, ['content-replacement']);
  const carried = carriedRecords(replacements, plan, resumeSessionId);
  let text = renderResumableTranscript(plan, { sessionId: resumeSessionId, fromDir: request.fromDir, toDir: request.toDir }, carried);
  for (const line of request.append?.(resumeSessionId, plan.lines.at(-1)?.entry.id ?? null) ?? []) text += `${line}\n`;
  await writeResumableTranscript(transcript, text);
  const configDir = claudeConfigDir(workspace.homeDir, workspace.env);
  const history = fileHistoryFolder(configDir, resumeSessionId);
  try {
    const sources = plan.lines.flatMap(({ entry }) => (entry.sessionId === null ? [] : [entry.sessionId]));
    await copyFileHistory(configDir, sources, resumeSessionId, signal);
    // Backups Claude Code's cleanup removed from the source's folder: the store kept them (the archive).
    await restoreFileHistory(workspace.store, workspace.objects, configDir, sources, resumeSessionId, signal);
  } catch (error) {
    await rm(transcript, { force: true });
    await rm(history, { recursive: true, force: true });
    throw error;
  }
  const warnings: string[] = [];
  if (!plan.targetKept) warnings.push('The node is a tool call whose outcome was never recorded: the resumable transcript ends just before it');
  else if (plan.dropped.length > 0) warnings.push(`${plan.dropped.length} transcript lines with unpaired tool calls or results were left out of the resumable transcript`);
  return { resumeSessionId, resume: `claude --resume ${resumeSessionId}`, transcript, history, warnings };
}
