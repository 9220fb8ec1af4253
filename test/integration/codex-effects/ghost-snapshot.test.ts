/**
 * Codex `ghost_snapshot` commits as exact states (issue 14): when the turn's folder is a repository that has
 * the commit, the touched files' contents there are known from its tree; a file the transcript never told
 * whole becomes known, a replayed one is checked. A missing commit or repository changes nothing. Generated
 * rollouts against real temp repositories (isomorphic-git writes the commit, as Codex's git would).
 */
import * as fs from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchStep } from '../../../electron/demo/codex-file-rollout';
import { RolloutBuilder, type HistoryMode } from '../../../electron/demo/codex-rollout';
import type { NodeSummary } from '../../../shared/model';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const AUTHOR = { name: 'Codex', email: 'codex@example.invalid', timestamp: 1_764_000_000, timezoneOffset: 0 };

/** A repository at `dir` whose one commit holds these files; returns the commit's oid. */
async function commitFiles(dir: string, files: Readonly<Record<string, string>>): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
    await git.add({ fs, dir, filepath: path });
  }
  return git.commit({ fs, dir, message: 'ghost snapshot', author: AUTHOR, committer: AUTHOR });
}

let sequence = 0;

async function imported(builder: RolloutBuilder, id: string): Promise<readonly NodeSummary[]> {
  const folder = join(h.root, `codex-${++sequence}`);
  mkdirSync(folder, { recursive: true });
  await builder.write(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
  const report = await h.service.api['import.run']({ paths: [folder] });
  expect(report.problems).toEqual([]);
  return (await h.service.api['sessions.graph']({ sessionId: id })).nodes;
}

const idOf = (n: number) => `019e0000-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`;
const EDIT = { op: 'update', path: 'src/a.ts', hunks: [{ lines: ['-export const a = 1;', '+export const a = 2;'] }] } as const;

/** One turn: the ghost commit, then an update of a file the transcript never showed whole. */
function editAfterGhost(id: string, cwd: string, commit: string, mode: HistoryMode): RolloutBuilder {
  const builder = new RolloutBuilder({ id, cwd, mode }).user('Bump a').ghostSnapshot(commit);
  patchStep(builder, cwd, [EDIT]);
  return builder.agent('a is 2 now.').complete();
}

const fileAt = (node: NodeSummary, path: string) => h.service.api['nodes.file']({ nodeId: node.id, path });

describe.each(['legacy', 'paginated'] as const)('Codex ghost_snapshot (%s history)', (mode) => {
  it('a file never seen whole is known from the ghost commit, and the update after it replays', async () => {
    const workspace = join(h.root, `repo-${mode}`);
    const commit = await commitFiles(workspace, { 'src/a.ts': 'export const a = 1;\n', 'README.md': 'untouched\n' });
    const nodes = await imported(editAfterGhost(idOf(mode === 'legacy' ? 1 : 2), workspace, commit, mode), idOf(mode === 'legacy' ? 1 : 2));
    const prompt = nodes.find((node) => node.kind === 'user')!;
    const atGhost = await fileAt(prompt, join(workspace, 'src/a.ts'));
    expect([atGhost.known, atGhost.content]).toEqual(['reconstructed', 'export const a = 1;\n']);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.content]).toEqual(['reconstructed', 'export const a = 2;\n']);
    // Only files the session touched are read from the commit.
    const listed = await h.service.api['nodes.files']({ nodeId: nodes[nodes.length - 1]!.id });
    expect(listed.files.map((file) => file.path)).toEqual([join(workspace, 'src/a.ts')]);
  });
});

describe('Codex ghost_snapshot checks and recovers replayed states', () => {
  it('a file in doubt after a shell command is known again at the next ghost commit', async () => {
    const workspace = join(h.root, 'repo-doubt');
    const commit = await commitFiles(workspace, { 'src/a.ts': 'export const a = 3;\n' });
    const id = idOf(3);
    const builder = new RolloutBuilder({ id, cwd: workspace }).user('Add a');
    patchStep(builder, workspace, [{ op: 'add', path: 'src/a.ts', content: 'export const a = 1;\n' }]);
    builder.command('npm run codegen', { exitCode: 0, output: 'wrote src/a.ts' }).agent('Generated.').complete();
    builder.user('Check a').ghostSnapshot(commit).agent('a is 3.').complete();
    const nodes = await imported(builder, id);
    const prompts = nodes.filter((node) => node.kind === 'user');
    const doubted = await fileAt(prompts[1]!, join(workspace, 'src/a.ts'));
    // The second prompt's node carries the ghost commit: the doubt of the command ends there.
    expect([doubted.known, doubted.content]).toEqual(['reconstructed', 'export const a = 3;\n']);
    const beforeGhost = await fileAt(nodes[nodes.indexOf(prompts[1]!) - 1]!, join(workspace, 'src/a.ts'));
    // Unknown from the command on (the commit read other contents than the replay: something else wrote it).
    expect([beforeGhost.known, beforeGhost.reason]).toEqual(['unknown', 'changed-outside-transcript']);
  });

  it('a replay the ghost commit contradicts takes the commit\'s content', async () => {
    const workspace = join(h.root, 'repo-contradicts');
    const commit = await commitFiles(workspace, { 'src/a.ts': 'export const a = 5;\n' });
    const id = idOf(4);
    const builder = new RolloutBuilder({ id, cwd: workspace }).user('Add a');
    patchStep(builder, workspace, [{ op: 'add', path: 'src/a.ts', content: 'export const a = 1;\n' }]);
    builder.agent('Added.').complete().user('Again').ghostSnapshot(commit).agent('Fine.').complete();
    const nodes = await imported(builder, id);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.content]).toEqual(['reconstructed', 'export const a = 5;\n']);
    // Between the Add and the commit the file changed outside the transcript: the steps after the Add no longer claim it.
    const second = nodes.findIndex((node, index) => node.kind === 'user' && index > 0 && nodes.slice(0, index).some((other) => other.kind === 'user'));
    const reply = await fileAt(nodes[second - 1]!, join(workspace, 'src/a.ts'));
    expect([reply.known, reply.reason]).toEqual(['unknown', 'changed-outside-transcript']);
  });
});

describe('Codex ghost_snapshot that cannot be read', () => {
  it('a commit missing from the repository changes nothing', async () => {
    const workspace = join(h.root, 'repo-missing-commit');
    await commitFiles(workspace, { 'src/a.ts': 'export const a = 1;\n' });
    const id = idOf(5);
    const missing = '1234567890abcdef1234567890abcdef12345678';
    const nodes = await imported(editAfterGhost(id, workspace, missing, 'legacy'), id);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.reason]).toEqual(['unknown', 'no-pre-state']);
    // The Files tab's unknown mark says why the commit told nothing.
    expect(last.ghost).toEqual({ commit: missing, why: 'no-commit', folder: workspace });
    const listed = await h.service.api['nodes.files']({ nodeId: nodes[nodes.length - 1]!.id });
    expect(listed.files.find((file) => file.path === join(workspace, 'src/a.ts'))).toMatchObject({ known: 'unknown', ghost: { why: 'no-commit', commit: missing } });
  });

  it('a folder that is no repository changes nothing', async () => {
    const elsewhere = join(h.root, 'repo-elsewhere');
    const commit = await commitFiles(elsewhere, { 'src/a.ts': 'export const a = 1;\n' });
    const workspace = join(h.root, 'not-a-repo');
    mkdirSync(workspace, { recursive: true });
    const id = idOf(6);
    const nodes = await imported(editAfterGhost(id, workspace, commit, 'legacy'), id);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.reason]).toEqual(['unknown', 'no-pre-state']);
    expect(last.ghost).toEqual({ commit, why: 'no-repository', folder: workspace });
  });

  it('a commit that cannot be read (a corrupt object) changes nothing, and says reading it failed', async () => {
    const workspace = join(h.root, 'repo-corrupt');
    const commit = await commitFiles(workspace, { 'src/a.ts': 'export const a = 1;\n' });
    // The loose commit object, overwritten with bytes that do not inflate.
    fs.writeFileSync(join(workspace, '.git', 'objects', commit.slice(0, 2), commit.slice(2)), 'not zlib');
    const id = idOf(7);
    const nodes = await imported(editAfterGhost(id, workspace, commit, 'legacy'), id);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.reason]).toEqual(['unknown', 'no-pre-state']);
    expect(last.ghost).toMatchObject({ commit, why: 'unreadable', folder: workspace });
    expect(last.ghost?.detail).toBeTruthy();
  });

  it('a file whose content no ghost snapshot was asked for has no ghost reason', async () => {
    const workspace = join(h.root, 'repo-no-ghost');
    mkdirSync(workspace, { recursive: true });
    const id = idOf(8);
    const builder = new RolloutBuilder({ id, cwd: workspace }).user('Bump a');
    patchStep(builder, workspace, [EDIT]);
    const nodes = await imported(builder.agent('a is 2 now.').complete(), id);
    const last = await fileAt(nodes[nodes.length - 1]!, join(workspace, 'src/a.ts'));
    expect([last.known, last.ghost]).toEqual(['unknown', undefined]);
  });
});
