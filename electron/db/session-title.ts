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
];

export function isTitleWorthy(label: string): boolean {
  const text = label.trim();
  return text !== '' && !NOT_A_TITLE.some((pattern) => pattern.test(text));
}
