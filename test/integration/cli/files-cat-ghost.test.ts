/**
 * `arbor files` and `arbor cat` in plain text say why a Codex ghost snapshot above a file told nothing (issue 15),
 * as their `--json` and the Files tab do: here the turn's folder is no git repository.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchStep } from '../../../electron/demo/codex-file-rollout';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { describeGhostMiss } from '../../../shared/file-known';
import type { NodeFiles, SessionGraph } from '../../../shared/model';
import { runCliCaptured, type Run } from './run-cli';

const ID = '019e0000-0000-7000-8000-00000000f015';
const COMMIT = '1234567890abcdef1234567890abcdef12345678';
let root: string;
let workspace: string;
let lastNode: string;
const cli = (args: string[]): Promise<Run> =>
  runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home'), env: { CODEX_HOME: join(root, 'codex') } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-ghost-'));
  workspace = join(root, 'not-a-repo');
  mkdirSync(workspace, { recursive: true });
  const day = join(root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  // One turn: the ghost commit, then an update of a file the transcript never showed whole.
  const builder = new RolloutBuilder({ id: ID, cwd: workspace }).user('Bump a').ghostSnapshot(COMMIT);
  patchStep(builder, workspace, [{ op: 'update', path: 'src/a.ts', hunks: [{ lines: ['-export const a = 1;', '+export const a = 2;'] }] }]);
  await builder.agent('a is 2 now.').complete().write(join(day, `rollout-2026-11-30T09-00-00-${ID}.jsonl`));
  expect((await cli(['import', join(root, 'codex', 'sessions')])).code).toBe(0);
  const graph = JSON.parse((await cli(['show', ID, '--json'])).stdout) as SessionGraph;
  lastNode = graph.nodes[graph.nodes.length - 1]!.id;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the ghost snapshot reason in plain text', () => {
  const sentence = () => describeGhostMiss({ commit: COMMIT, why: 'no-repository', folder: workspace }).replace(/\.$/, '');

  it('arbor files prints it on the unknown file’s line, as --json has it', async () => {
    const json = JSON.parse((await cli(['files', lastNode, '--json'])).stdout) as NodeFiles;
    const file = json.files.find((entry) => entry.path === join(workspace, 'src/a.ts'));
    expect(file).toMatchObject({ known: 'unknown', ghost: { commit: COMMIT, why: 'no-repository', folder: workspace } });
    const run = await cli(['files', lastNode]);
    expect(run.code).toBe(0);
    const line = run.stdout.split('\n').find((text) => text.includes(join(workspace, 'src/a.ts')));
    expect(line).toContain(`no step on the path tells its content. ${sentence()})`);
    expect(line).toContain(`The ghost snapshot ${COMMIT.slice(0, 7)} could not be read: ${workspace} is no git repository`);
  });

  it('arbor cat says it on stderr with the reason (exit 1)', async () => {
    const run = await cli(['cat', lastNode, join(workspace, 'src/a.ts')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`(no step on the path tells its content. ${sentence()})`);
  });
});
