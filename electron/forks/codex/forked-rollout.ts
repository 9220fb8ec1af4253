/**
 * The text of a forked rollout (FORMATS.md §2.3): the source's `session_meta` with a new id, `forked_from_id`
 * naming the source thread, the fork's creation time and its folder as `cwd`; then the source's lines up to
 * the end of the fork point's turn, each copied as it was except that the source workspace's paths move into
 * the fork's folder in what Codex reads back (turn settings, the model-visible history), so the resumed agent
 * works in the fork, not in the folder it was forked from. Event lines (the UI's record) keep their bytes.
 *
 * The cut: Codex's own fork keeps everything strictly before the nth user message (core/src/rollout/
 * truncation.rs). Arbor keeps the fork point's whole turn and cuts where it ends: after its `task_complete` /
 * `turn_aborted`, else where the next turn opens (its `task_started`, `turn_context` and context messages go
 * with it, so the copy never ends in half a turn's opening), else at the end of the file.
 */
import { movedCwd } from '../resumable-transcript';
import { movePaths } from '../transcript-paths';
import { isUuid } from './rollout-rules';
import { endsTurn, isUserPrompt, turnOpenings, type RolloutLineView } from './rollout-view';

export interface RolloutForkRewrite {
  /** The fork's new thread id. */
  readonly threadId: string;
  /** The folder the session ran in; its paths move into `toDir`. */
  readonly fromDir: string | null;
  readonly toDir: string;
  readonly createdAt: Date;
}

export interface RolloutCut {
  /** Lines [0, end) are copied. */
  readonly end: number;
  readonly at: 'turn-end' | 'next-turn' | 'end-of-file';
}

export type ForkedRolloutOutcome =
  | {
      readonly resumable: true;
      readonly text: string;
      readonly sourceThreadId: string;
      readonly cut: RolloutCut;
      /** Lines before the cut that are not rollout lines (Codex skips them too), left out of the copy. */
      readonly dropped: number;
    }
  | { readonly resumable: false; readonly reason: string };

/** Where the fork point's turn ends (see the file comment). */
export function cutAfterTurnOf(lines: readonly RolloutLineView[], nodeIndex: number): RolloutCut {
  const next = turnOpenings(lines).find((start) => start > nodeIndex) ?? lines.length;
  for (let index = nodeIndex; index < next; index++) {
    if (endsTurn(lines[index]!)) return { end: index + 1, at: 'turn-end' };
  }
  return next < lines.length ? { end: next, at: 'next-turn' } : { end: lines.length, at: 'end-of-file' };
}

/** Line types whose paths Codex reads back: the session's and turns' settings, the model's history. */
function relocates(line: RolloutLineView): boolean {
  if (line.type === 'turn_context' || line.type === 'compacted') return true;
  // Reasoning is opaque (encrypted_content) and its summary is the model's own words: kept byte for byte.
  return line.type === 'response_item' && line.kind !== 'reasoning';
}

/** A path as it appears inside a JSON string. */
const inJson = (path: string): string => JSON.stringify(path).slice(1, -1);

export function renderForkedRollout(lines: readonly RolloutLineView[], nodeIndex: number, rewrite: RolloutForkRewrite): ForkedRolloutOutcome {
  const first = lines[0];
  if (first === undefined || first.type !== 'session_meta' || first.payload === null || first.value === null) {
    return { resumable: false, reason: 'the rollout does not begin with a session_meta line to give the fork its identity' };
  }
  const sourceThreadId = first.payload.id;
  if (!isUuid(sourceThreadId)) return { resumable: false, reason: 'the rollout has no thread id (session_meta.id) for the fork to name as its source' };
  if (nodeIndex < 0 || nodeIndex >= lines.length) return { resumable: false, reason: `the rollout has no line ${nodeIndex + 1}` };
  const cut = cutAfterTurnOf(lines, nodeIndex);
  // At the session_meta line (before any prompt) there is no conversation to continue, as for Claude Code.
  if (!lines.slice(0, cut.end).some(isUserPrompt)) return { resumable: false, reason: 'no user turn precedes the node, so there is no conversation to resume' };
  const move = (text: string): string =>
    rewrite.fromDir === null || rewrite.fromDir === rewrite.toDir ? text : movePaths(text, inJson(rewrite.fromDir), inJson(rewrite.toDir));

  const createdAt = rewrite.createdAt.toISOString();
  const { id: _id, forked_from_id: _forkedFrom, ...rest } = first.payload;
  const cwd = typeof rest.cwd === 'string' ? movedCwd(rest.cwd, rewrite.fromDir, rewrite.toDir) : rewrite.toDir;
  // Key order as Codex's SessionMeta serializes it: id, forked_from_id, timestamp, cwd, then the rest as it was.
  const payload: Record<string, unknown> = { id: rewrite.threadId, forked_from_id: sourceThreadId, timestamp: createdAt, cwd };
  for (const [key, value] of Object.entries(rest)) if (!(key in payload)) payload[key] = value;
  let text = `${move(JSON.stringify({ ...first.value, timestamp: createdAt, payload }))}\n`;
  let dropped = 0;
  for (let index = 1; index < cut.end; index++) {
    const line = lines[index]!;
    if (line.text.trim().length === 0) continue;
    if (line.value === null || line.type === null || line.payload === null) {
      dropped++;
      continue;
    }
    text += `${relocates(line) ? move(line.text) : line.text}\n`;
  }
  return { resumable: true, text, sourceThreadId, cut, dropped };
}
