/**
 * Where a forked rollout goes so that `codex resume <id>` finds it: `$CODEX_HOME` (else `~/.codex`)
 * `/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, the folders and name in the machine's local
 * time as Codex writes its own (openai/codex core/src/rollout/recorder.rs `precompute_log_file_info`), with a
 * time-ordered UUID v7 for the id, as Codex's `ThreadId::new` makes them.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { defaultCodexLocations } from '../../importers/codex';

type Env = Readonly<Record<string, string | undefined>>;

export function codexSessionsDir(homeDir: string, env: Env): string {
  return defaultCodexLocations(homeDir, env)[0]!;
}

const two = (value: number): string => String(value).padStart(2, '0');

export function rolloutPath(sessionsDir: string, threadId: string, at: Date): string {
  const [year, month, day] = [String(at.getFullYear()), two(at.getMonth() + 1), two(at.getDate())];
  const time = `${two(at.getHours())}-${two(at.getMinutes())}-${two(at.getSeconds())}`;
  return join(sessionsDir, year, month, day, `rollout-${year}-${month}-${day}T${time}-${threadId}.jsonl`);
}

/** A UUID v7 (RFC 9562): 48 bits of Unix milliseconds, the version and variant bits, the rest random. */
export function uuidV7(at: Date, random: (size: number) => Buffer = randomBytes): string {
  const bytes = random(16);
  let millis = BigInt(at.getTime());
  for (let index = 5; index >= 0; index--) {
    bytes[index] = Number(millis & 0xffn);
    millis >>= 8n;
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
