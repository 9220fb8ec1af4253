import type { WritableDB } from './database';

/**
 * Which first lines may title a session. Claude Code writes, as "user" lines, things the user never typed:
 * local-command caveats and echoes, slash-command wrappers, hook output, interruption notices and the
 * summary that continues a compacted conversation. A title taken from those says nothing about the session.
 */
const NOT_A_TITLE: readonly RegExp[] = [
  /^caveat: the messages below were generated/i,
  /^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder|user-prompt-submit-hook|bash-input|bash-stdout|bash-stderr|task-notification)\b/i,
  /^\[request interrupted by user/i,
  /^this session is being continued from a previous conversation/i,
  /^(pre|post)?tooluse|^(stop|subagentstop|sessionstart|userpromptsubmit|precompact|notification) hook/i,
  /^api error\b/i,
  // The labels the importer gives the notices Claude Code writes as system lines (entry-summary.ts): a session
  // without a typed prompt is titled by its first readable step, and these say nothing about it either.
  /^\/[a-z][\w:.-]*(\s|$)/i, // a slash command's echo: "/clear", "/model opus" (a typed prompt is never stored so)
  /^(output|reminder):(\s|$)/i,
  /^! /,
  /^stop hooks: \d+ ran\b/i,
  /^turn finished(\s|$)/i,
  /^(micro)?compacted(\s|$)|^compaction summary$/i,
  /^empty user line$|^local command$|^system: [\w-]+$/i,
  /^✗ api error\b/i,
  // A model switch or fallback notice: "/model" echoes are above; these are the notices themselves.
  /^(set model to|model (switched|changed|set|fell back)\b)/i,
  /^<local-command-caveat>/i,
];

export function isTitleWorthy(label: string): boolean {
  const text = label.trim();
  return text !== '' && !NOT_A_TITLE.some((pattern) => pattern.test(text));
}

/**
 * The title a transcript gives itself (issue 13): the last `custom-title` the user set wins, then the newest
 * `ai-title`, then a `summary` record (`summary`, looked up by the caller). Title records carry no node id, so
 * they are found through the session's files, latest written first; the importer keeps their text in the
 * records' summary column (records-2026.ts).
 */
export function prepareTitleStatements(db: WritableDB) {
  return {
    latestTitleRecord: db.prepare<[string, string], { summary: string }>(
      `SELECT r.summary FROM files f JOIN records r ON r.file_id = f.id
       WHERE f.session_id = ? AND r.type = ? AND r.summary IS NOT NULL AND r.summary != ''
       ORDER BY r.file_id DESC, r.offset DESC LIMIT 1`,
    ),
  };
}
export type TitleStatements = ReturnType<typeof prepareTitleStatements>;

/** Record types (besides `summary`, linked by its leafUuid) whose arrival makes a session look its title up again. */
export const TITLE_RECORD_TYPES: ReadonlySet<string> = new Set(['custom-title', 'ai-title']);

export function transcriptTitle(s: TitleStatements, sessionId: string, summary: () => string | null): string | null {
  return s.latestTitleRecord.get(sessionId, 'custom-title')?.summary ?? s.latestTitleRecord.get(sessionId, 'ai-title')?.summary ?? summary();
}
