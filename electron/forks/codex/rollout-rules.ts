/**
 * The structure a rollout needs for `codex resume <id>` to continue it, derived from the public rollouts
 * (shared/corpus/sessions/codex: CLI 0.125, 0.128-alpha, 0.129) and from Codex's source (openai/codex, read
 * through the code index):
 *
 * - `core/src/rollout/recorder.rs` `load_rollout_items` / `get_rollout_history`: an empty file is refused; each
 *   line is parsed as a `RolloutLine` (`{timestamp, type, payload}`, `RolloutItem` tagged by `type`), a line that
 *   does not parse is skipped; the FIRST `session_meta` gives the thread id, and without one resume fails
 *   ("failed to parse thread ID from rollout file"). Resume re-opens the file and appends to it, so a last line
 *   without its newline would be joined to the next one written.
 * - `protocol/src/protocol.rs` `SessionMeta`: `id` (a `ThreadId`, a UUID), `forked_from_id?`, `timestamp`, `cwd`,
 *   `originator`, `cli_version` are required (a meta line without them does not parse, so the file has no id).
 * - `core/src/rollout/list.rs` `find_thread_path_by_id_str`: the id must parse as a UUID, and the file is found
 *   by the id in its name under `sessions/`; `parse_timestamp_uuid_from_filename` reads
 *   `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl`.
 * - `TurnContextItem` needs `cwd`; `CompactedItem` needs `message` (`replacement_history?` is a list of items).
 * - `core/src/rollout/truncation.rs`: turns are counted by the person's user messages (session-prefix context
 *   messages aside); a turn opens with `task_started`, `turn_context`, the context messages and the prompt
 *   (`response_item` message + `event_msg` `user_message` echo in the legacy mode) and ends with `task_complete`
 *   or `turn_aborted` (0.125–0.129 rollouts). History items are `response_item`s (and `compacted`); `event_msg`
 *   lines are the UI's record.
 *
 * A finding is an `error` when Codex cannot resume the file (or finds it under another id), a `warning` when it
 * resumes it but loses or repairs something (a line it skips, a call without its output, a turn left open).
 */
import { isAbsolute } from 'node:path';
import { callOf, endsTurn, isUserPrompt, splitRollout, viewLine, type RolloutLineView } from './rollout-view';

export type RolloutRule =
  | 'empty'
  | 'unterminated'
  | 'first-line'
  | 'meta-id'
  | 'meta-fields'
  | 'forked-from'
  | 'file-name'
  | 'skipped-line'
  | 'turn-context'
  | 'compacted'
  | 'output-without-call'
  | 'call-without-output'
  | 'turn-left-open'
  | 'turn-without-context';

export interface RolloutFinding {
  readonly rule: RolloutRule;
  readonly severity: 'error' | 'warning';
  /** 1-based line number; 0 for the file as a whole. */
  readonly line: number;
  readonly reason: string;
}

export interface RolloutVerdict {
  /** No errors: `codex resume <threadId>` finds and continues it. */
  readonly resumable: boolean;
  readonly threadId: string | null;
  readonly forkedFromId: string | null;
  readonly findings: readonly RolloutFinding[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_NAME = /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const META_STRINGS = ['timestamp', 'cwd', 'originator', 'cli_version'] as const;

export function isUuid(text: unknown): text is string {
  return typeof text === 'string' && UUID.test(text);
}

/** Checks a rollout's text; `fileName` (its base name) adds the rule Codex finds it by. */
export function checkRollout(text: string, options: { readonly fileName?: string } = {}): RolloutVerdict {
  const findings: RolloutFinding[] = [];
  const error = (rule: RolloutRule, line: number, reason: string): void => void findings.push({ rule, severity: 'error', line, reason });
  const warning = (rule: RolloutRule, line: number, reason: string): void => void findings.push({ rule, severity: 'warning', line, reason });

  const { lines: texts, endsWithNewline } = splitRollout(text);
  const lines = texts.map(viewLine);
  const nonBlank = lines.filter((line) => line.text.trim().length > 0);
  if (nonBlank.length === 0) {
    error('empty', 0, 'the rollout has no lines: Codex refuses an empty session file');
    return { resumable: false, threadId: null, forkedFromId: null, findings };
  }
  if (!endsWithNewline) error('unterminated', lines.length, 'the last line has no newline: the next line Codex appends on resume would be joined to it');

  const meta = checkMeta(nonBlank[0]!, error);
  if (options.fileName !== undefined) {
    const name = FILE_NAME.exec(options.fileName);
    if (name === null) error('file-name', 0, `the file name ${options.fileName} is not rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl: Codex neither lists nor finds it`);
    else if (meta.threadId !== null && name[2]!.toLowerCase() !== meta.threadId.toLowerCase()) {
      error('file-name', 0, `the file name holds ${name[2]} but session_meta's id is ${meta.threadId}: \`codex resume ${meta.threadId}\` would not find it`);
    }
  }

  checkLines(nonBlank, warning);
  checkTurns(nonBlank, warning);
  const resumable = !findings.some((finding) => finding.severity === 'error');
  return { resumable, threadId: meta.threadId, forkedFromId: meta.forkedFromId, findings };
}

type Report = (rule: RolloutRule, line: number, reason: string) => void;

function checkMeta(first: RolloutLineView, error: Report): { threadId: string | null; forkedFromId: string | null } {
  const at = first.index + 1;
  if (first.type !== 'session_meta' || first.payload === null) {
    error('first-line', at, `the first line is ${first.type === null ? 'not a rollout line' : `a ${first.type} line`}, not session_meta: Codex takes the thread id from session_meta`);
    return { threadId: null, forkedFromId: null };
  }
  const payload = first.payload;
  if (typeof first.value?.timestamp !== 'string') error('meta-fields', at, 'the session_meta line has no timestamp: Codex cannot read it as a rollout line');
  const id = payload.id;
  if (!isUuid(id)) error('meta-id', at, id === undefined ? 'session_meta has no id: the rollout has no thread id to resume' : `session_meta's id ${JSON.stringify(id)} is not a UUID: Codex's thread ids are UUIDs`);
  const missing = META_STRINGS.filter((key) => typeof payload[key] !== 'string');
  if (missing.length > 0) error('meta-fields', at, `session_meta lacks ${missing.join(', ')}: Codex cannot read the line, so the rollout has no thread id`);
  else if (!isAbsolute(payload.cwd as string)) error('meta-fields', at, `session_meta's cwd ${String(payload.cwd)} is not an absolute path`);
  const forkedFrom = payload.forked_from_id;
  if (forkedFrom !== undefined && forkedFrom !== null) {
    if (!isUuid(forkedFrom)) error('forked-from', at, `forked_from_id ${JSON.stringify(forkedFrom)} is not a thread id (a UUID)`);
    else if (forkedFrom === id) error('forked-from', at, 'forked_from_id names the rollout itself');
  }
  return { threadId: isUuid(id) ? id : null, forkedFromId: isUuid(forkedFrom) ? forkedFrom : null };
}

function checkLines(lines: readonly RolloutLineView[], warning: Report): void {
  for (const line of lines) {
    const at = line.index + 1;
    const value = line.value;
    if (value === null) {
      warning('skipped-line', at, 'not a JSON object: Codex skips the line on resume');
      continue;
    }
    if (typeof value.timestamp !== 'string' || line.type === null || line.payload === null) {
      warning('skipped-line', at, 'not a {timestamp, type, payload} rollout line: Codex skips it on resume');
      continue;
    }
    if ('ordinal' in value && typeof value.ordinal !== 'number') warning('skipped-line', at, 'its ordinal is not a number: Codex skips the line');
    if (!LINE_TYPES.has(line.type)) {
      warning('skipped-line', at, `a ${line.type} line, which this Codex line set does not have: Codex versions that do not know it skip it`);
      continue;
    }
    if (line.type === 'turn_context' && typeof line.payload.cwd !== 'string') {
      warning('turn-context', at, 'turn_context has no cwd: Codex skips it, so the resumed turn loses its settings');
    }
    if (line.type === 'compacted') {
      const history = line.payload.replacement_history;
      if (typeof line.payload.message !== 'string') warning('compacted', at, 'the compaction has no message: Codex skips it and resumes the uncompacted history');
      else if (history !== undefined && history !== null && !Array.isArray(history)) warning('compacted', at, 'replacement_history is not a list of items: Codex skips the compaction');
    }
  }
}

function checkTurns(lines: readonly RolloutLineView[], warning: Report): void {
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  for (const line of lines) {
    const call = callOf(line);
    if (call === null) continue;
    if (call.role === 'call') calls.set(call.callId, line.index + 1);
    else if (!calls.has(call.callId)) warning('output-without-call', line.index + 1, `the output of ${call.callId} has no call before it: the model's history would answer a call it never made`);
    else answered.add(call.callId);
  }
  for (const [callId, at] of calls) {
    if (!answered.has(callId)) warning('call-without-output', at, `${callId} has no output: Codex resumes it as aborted`);
  }

  // Task events: each started turn is completed or aborted before the next starts (rollouts that record them).
  let open: { turnId: string; at: number } | null = null;
  const recordsContext = lines.some((line) => line.type === 'turn_context');
  let contextSincePrompt = false;
  let previousPrompt: RolloutLineView | null = null;
  for (const line of lines) {
    if (line.type === 'event_msg' && line.kind === 'task_started') {
      if (open !== null) warning('turn-left-open', open.at, `turn ${open.turnId} is neither completed nor aborted before the next one starts`);
      open = { turnId: String(line.payload?.turn_id ?? '?'), at: line.index + 1 };
    } else if (endsTurn(line)) {
      open = null;
    }
    if (line.type === 'turn_context') contextSincePrompt = true;
    if (isUserPrompt(line)) {
      // The legacy mode writes a prompt twice (the model's message, the UI's echo): one turn.
      const echo = previousPrompt !== null && previousPrompt.index === line.index - 1 && previousPrompt.type !== line.type;
      if (recordsContext && !contextSincePrompt && !echo) warning('turn-without-context', line.index + 1, 'a user turn without a turn_context since the previous one: Codex resumes it with the previous turn\'s settings');
      if (!echo) contextSincePrompt = false;
      previousPrompt = line;
    }
  }
  if (open !== null) warning('turn-left-open', open.at, `the rollout ends inside turn ${open.turnId} (no task_complete or turn_aborted)`);
}
