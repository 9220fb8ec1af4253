/**
 * A fork of a Codex session that `codex resume <id>` continues: planned before the fork's folder is written
 * (the source rollout is read whole and the copy rendered, so an unreadable rollout stops nothing but the
 * transcript), written after it under `$CODEX_HOME/sessions/…` — to a temporary name, then linked into place,
 * never over an existing file — and checked against the structure rules first: a copy that breaks one is not
 * written at all.
 */
import { basename } from 'node:path';
import type { StoredNode } from '../../db/node-queries';
import { readRolloutLines } from '../../importers/codex/rollout-lines';
import { ArborError } from '../../../shared/errors';
import { writeResumableTranscript } from '../resumable-transcript';
import { codexSessionsDir, rolloutPath, uuidV7 } from './codex-home';
import { renderForkedRollout } from './forked-rollout';
import { checkRollout, type RolloutFinding } from './rollout-rules';
import { viewLine, type RolloutLineView } from './rollout-view';
import type { StoredRolloutReader } from './stored-rollout';

type Env = Readonly<Record<string, string | undefined>>;

export interface CodexForkPlan {
  readonly resumable: true;
  readonly threadId: string;
  readonly path: string;
  readonly text: string;
  /** What Codex will skip or repair on resume (the rules' warnings), and lines left out. */
  readonly warnings: readonly string[];
}

export type CodexForkOutcome = CodexForkPlan | { readonly resumable: false; readonly reason: string };

export interface CodexForkRequest {
  readonly node: StoredNode;
  readonly fromDir: string | null;
  readonly toDir: string;
  readonly homeDir: string;
  readonly env: Env;
  readonly now: Date;
  readonly signal?: AbortSignal;
  /** The rollout as the store kept it, for when its file is gone (the store is the archive, issue 15). */
  readonly stored?: StoredRolloutReader;
}

export async function planCodexFork(request: CodexForkRequest): Promise<CodexForkOutcome> {
  const { node } = request;
  let lines: RolloutLineView[] = [];
  try {
    await readRolloutLines(node.file, (line) => void lines.push(viewLine(line.oversize ? '' : line.bytes.toString('utf8'), lines.length)), { signal: request.signal });
  } catch (error) {
    if (error instanceof ArborError && error.code === 'CANCELLED') throw error;
    const kept = isMissingFile(error) ? request.stored?.(node.file, node.summary.sessionId, request.signal) : null;
    if (kept === null || kept === undefined) {
      return { resumable: false, reason: `the rollout ${node.file} could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    lines = [...kept];
  }
  const index = node.line - 1;
  const at = lines[index];
  // The store keeps the line's head: the file must still hold it where it was imported from.
  if (at === undefined || !Buffer.from(at.text, 'utf8').subarray(0, node.raw.length).equals(node.raw)) {
    return { resumable: false, reason: `the node's line is no longer at ${node.file}:${node.line}: the rollout changed since it was imported` };
  }
  const threadId = uuidV7(request.now);
  const rendered = renderForkedRollout(lines, index, { threadId, fromDir: request.fromDir, toDir: request.toDir, createdAt: request.now });
  if (!rendered.resumable) return rendered;
  const path = rolloutPath(codexSessionsDir(request.homeDir, request.env), threadId, request.now);
  const verdict = checkRollout(rendered.text, { fileName: basename(path) });
  const errors = verdict.findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) return { resumable: false, reason: `the copy would break Codex's rollout rules (${errors.map(describe).join('; ')})` };
  const warnings = verdict.findings.map((finding) => `The forked rollout, ${describe(finding)}`);
  if (rendered.dropped > 0) warnings.push(`${rendered.dropped} lines of the source rollout that were not rollout lines were left out of the fork`);
  return { resumable: true, threadId, path, text: rendered.text, warnings };
}

function describe(finding: RolloutFinding): string {
  return `line ${finding.line}: ${finding.reason}`;
}

export async function writeCodexFork(plan: CodexForkPlan): Promise<void> {
  await writeResumableTranscript(plan.path, plan.text);
}

export function codexResumeCommand(threadId: string): string {
  return `codex resume ${threadId}`;
}

/** The rollout was deleted (by Codex, the user, or a move to another machine), as opposed to unreadable. */
function isMissingFile(error: unknown): boolean {
  const code = (error as { code?: unknown; data?: { cause?: { code?: unknown } } } | null)?.code;
  if (code === 'ENOENT' || code === 'NOT_FOUND') return true;
  return error instanceof Error && /ENOENT|no such file/i.test(error.message);
}
