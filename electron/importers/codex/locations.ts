/** Where Codex keeps rollouts: `$CODEX_HOME` (default `~/.codex`) `/sessions/YYYY/MM/DD/` and `/archived_sessions/`. */
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

export function defaultCodexLocations(homeDir: string, env: Env): string[] {
  const configured = env.CODEX_HOME?.trim();
  const base =
    configured === undefined || configured.length === 0
      ? join(homeDir, '.codex')
      : configured === '~' || configured.startsWith('~/')
        ? join(homeDir, configured.slice(1))
        : configured;
  return [join(base, 'sessions'), join(base, 'archived_sessions')];
}

/** Rollout file names a folder walk takes: plain and zstd-compressed JSON lines. */
export function isRolloutFileName(name: string): boolean {
  return name.endsWith('.jsonl') || name.endsWith('.jsonl.zst');
}
