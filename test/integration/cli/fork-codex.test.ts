/** `arbor fork` on a Codex session prints the `codex resume <id>` that continues it, and `arbor forks` lists it. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { checkRollout } from '../../../electron/forks/codex/rollout-rules';
import type { SessionGraph } from '../../../shared/model';
import type { ForkCreated } from '../../../shared/operations';
import { runCliCaptured, type Run } from './run-cli';

const ID = '019e0000-0000-7000-8000-00000000e001';
let root: string;
let env: Record<string, string>;
const cli = (args: string[]): Promise<Run> => runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home'), env });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-codex-fork-'));
  env = { CODEX_HOME: join(root, 'codex') };
  const day = join(root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  mkdirSync(join(root, 'app'));
  await new RolloutBuilder({ id: ID, cwd: join(root, 'app') }).user('Fix the date test').agent('Fixed.').complete().write(join(day, `rollout-2026-11-30T09-00-00-${ID}.jsonl`));
  expect((await cli(['import', join(root, 'codex', 'sessions')])).code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('prints how to continue a Codex fork: cd into the folder, then codex resume <new id>', async () => {
  const graph = JSON.parse((await cli(['show', ID, '--json'])).stdout) as SessionGraph;
  const reply = graph.nodes.find((node) => node.kind === 'assistant')!;
  const run = await cli(['fork', reply.id, '--to', join(root, 'fork')]);
  expect(run.code).toBe(0);
  const resume = /^Resume: {2}cd "(.*)" && codex resume ([0-9a-f-]{36})$/m.exec(run.stdout);
  expect(resume?.[1]).toBe(join(root, 'fork'));

  const json = JSON.parse((await cli(['fork', reply.id, '--to', join(root, 'fork-2'), '--json'])).stdout) as ForkCreated;
  expect(json.resume).toBe(`codex resume ${json.resumeSessionId}`);
  expect(checkRollout(readFileSync(json.transcript!, 'utf8')).resumable).toBe(true);
  const table = await cli(['forks']);
  expect(table.stdout).toContain(`codex resume ${resume![2]}`);
  expect(table.stdout).toContain(`codex resume ${json.resumeSessionId}`);
});
