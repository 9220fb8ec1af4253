/**
 * Where Claude Code looks for a session to resume (FORMATS.md §1.1): `<config dir>/projects/<encoded cwd>/`,
 * the config dir being `$CLAUDE_CONFIG_DIR` or `~/.claude` (home and environment injected).
 */
import { join } from 'node:path';
import { defaultClaudeLocations } from '../importers/claude-code';

const MAX_ENCODED_LENGTH = 200;

/** Claude Code's djb2 (32-bit, signed) as its Node build computes it for long project folder names. */
function djb2(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * A working directory's folder name under `projects/`: every non-alphanumeric character becomes `-`; names
 * over 200 characters are cut and a hash of the whole path appended. (Claude Code's Bun build hashes long
 * names differently; `claude --resume <id>` still finds the session there through its cross-project search.)
 */
export function encodeProjectDir(cwd: string): string {
  const encoded = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (encoded.length <= MAX_ENCODED_LENGTH) return encoded;
  return `${encoded.slice(0, MAX_ENCODED_LENGTH)}-${Math.abs(djb2(cwd)).toString(36)}`;
}

export function claudeProjectsDir(homeDir: string, env: Readonly<Record<string, string | undefined>>): string {
  return defaultClaudeLocations(homeDir, env)[0]!;
}

/** The transcript file `claude --resume <sessionId>` run in `cwd` reads. */
export function resumableTranscriptPath(homeDir: string, env: Readonly<Record<string, string | undefined>>, cwd: string, sessionId: string): string {
  return join(claudeProjectsDir(homeDir, env), encodeProjectDir(cwd), `${sessionId}.jsonl`);
}
