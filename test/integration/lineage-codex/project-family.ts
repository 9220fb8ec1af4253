/**
 * One folder's sessions across agents (issue 14): the Claude Code family of lineage-family.ts (a parent, its fork,
 * its continuation and a session that follows it) and, in the same folder, a Codex rollout and its fork.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forkRollout, rolloutText } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { lineageFamily, writeLineageFamily } from '../import/lineage-family';
import { CWD } from '../import/lineage-fixtures';

export const CODEX_SOURCE = '019e4000-0000-7000-8000-00000000000a';
export const CODEX_FORK = '019e4000-0000-7000-8000-00000000000b';

/** Writes the Claude family under `root/projects` and the Codex pair under `root/codex/sessions/…`; returns both folders. */
export function writeProjectFamily(root: string) {
  const family = lineageFamily();
  const projects = join(root, 'projects');
  writeLineageFamily(projects, family);
  const first = new RolloutBuilder({ id: CODEX_SOURCE, cwd: CWD, start: new Date('2026-03-01T12:00:00.000Z') })
    .user('Port the parser to Rust')
    .command('cargo test', { exitCode: 0, output: 'ok' })
    .agent('Ported.')
    .complete();
  const copiedLines = first.take().length - 1;
  const source = first.user('Benchmark it').agent('2x faster.').complete().take();
  const fork = forkRollout(source, { id: CODEX_FORK, cwd: CWD, forkedFromId: CODEX_SOURCE, start: new Date('2026-03-01T13:00:00.000Z') }, (b) => b.user('Try it with nom instead').agent('Rewritten with nom.').complete(), { copiedLines });
  const codex = join(root, 'codex', 'sessions', '2026', '03', '01');
  mkdirSync(codex, { recursive: true });
  writeFileSync(join(codex, `rollout-2026-03-01T12-00-00-${CODEX_SOURCE}.jsonl`), rolloutText(source));
  writeFileSync(join(codex, `rollout-2026-03-01T13-00-00-${CODEX_FORK}.jsonl`), rolloutText(fork));
  return { family, projects, codex: join(root, 'codex') };
}
