/**
 * The command that continues a fork's run, by the agent whose transcript it wrote: a Codex rollout
 * (`rollout-….jsonl` under `$CODEX_HOME/sessions`) resumes with `codex resume <id>`, a Claude Code transcript
 * with `claude --resume <id>`. The fork records keep the transcript's path, which says which one it is.
 */
import { basename } from 'node:path';
import { codexResumeCommand } from './codex/codex-fork';

export function resumeCommandOf(fork: { readonly resumeSessionId: string | null; readonly transcript: string | null }): string | null {
  if (fork.resumeSessionId === null) return null;
  const name = fork.transcript === null ? '' : basename(fork.transcript);
  return name.startsWith('rollout-') ? codexResumeCommand(fork.resumeSessionId) : `claude --resume ${fork.resumeSessionId}`;
}
