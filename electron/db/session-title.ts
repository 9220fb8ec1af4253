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
];

export function isTitleWorthy(label: string): boolean {
  const text = label.trim();
  return text !== '' && !NOT_A_TITLE.some((pattern) => pattern.test(text));
}
