/**
 * A generated Codex rollout that changes files, through the real service: its reconstructed states (Add /
 * Update by context / Move / Delete, a rejected patch, a command that writes), in both history modes, and a
 * rewind on them that previews, applies and undoes.
 */
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileStatesRollout, patchStep } from '../../../electron/demo/codex-file-rollout';
import { RolloutBuilder, type HistoryMode } from '../../../electron/demo/codex-rollout';
import type { NodeSummary } from '../../../shared/model';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
/** A harness of its own for each test of the enclosing describe (for tests that write). */
function harnessPerTest(): void {
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(async () => {
    await h.dispose();
  });
}

const ID = { legacy: '019e0000-0000-7000-8000-0000000000b1', paginated: '019e0000-0000-7000-8000-0000000000b2' } as const;

async function imported(mode: HistoryMode) {
  const workspace = join(h.root, `workspace-${mode}`);
  mkdirSync(workspace, { recursive: true });
  const rollout = fileStatesRollout({ id: ID[mode], cwd: workspace, mode });
  const folder = join(h.root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(folder, { recursive: true });
  await rollout.builder.write(join(folder, `rollout-2026-11-30T09-00-00-${ID[mode]}.jsonl`));
  const report = await h.service.api['import.run']({ paths: [join(h.root, 'codex')] });
  expect(report.problems).toEqual([]);
  const graph = await h.service.api['sessions.graph']({ sessionId: ID[mode] });
  return { workspace, rollout, nodes: graph.nodes };
}

const promptAt = (nodes: readonly NodeSummary[], text: string) => nodes.findIndex((node) => node.kind === 'user' && node.label === text);

describe.each(['legacy', 'paginated'] as const)('Codex file states (%s history)', (mode) => {
  describe('read from one import', () => {
    // These only read the states of the imported session: one harness and one import serve them all.
    let session: Awaited<ReturnType<typeof imported>>;
    beforeAll(async () => {
      h = await openHarness();
      session = await imported(mode);
    });
    afterAll(async () => {
      await h.dispose();
    });

    it('round-trips: the replay after the last step is the files the generator wrote', async () => {
      const { workspace, rollout, nodes } = session;
      const last = nodes[nodes.length - 1]!;
      for (const [path, content] of rollout.finalFiles) {
        const file = await h.service.api['nodes.file']({ nodeId: last.id, path: join(workspace, path), replayed: true });
        expect([path, file.known === 'unknown' ? file.replayed : file.content]).toEqual([path, content]);
      }
      const files = await h.service.api['nodes.files']({ nodeId: last.id });
      const byPath = new Map(files.files.map((file) => [file.path.slice(workspace.length + 1), file]));
      // Files that do not exist at the node are not listed.
      expect([...byPath.keys()].sort()).toEqual([...rollout.finalFiles].flatMap(([path, content]) => (content === null ? [] : [path])).sort());
      // The changelog was added after `npm run format`: known. The rest may have been rewritten by it.
      expect(byPath.get('CHANGELOG.md')?.known).toBe('reconstructed');
      const shell = nodes.findIndex((node) => node.toolCalls.some((call) => call.name === 'exec_command') && node.label.includes('npm run format'));
      expect(shell).toBeGreaterThan(0);
      // From the command's outcome: the output line (legacy), or the item that is call and outcome at once.
      const outcome = nodes[mode === 'legacy' ? shell + 1 : shell]!;
      const greet = byPath.get('src/greet.ts');
      expect(greet?.known).toBe('unknown');
      expect(greet?.known === 'unknown' ? [greet.reason, greet.unknownSince] : null).toEqual(['shell', outcome.id]);
    });

    it('knows every file after the first turn, and nothing before the first Add', async () => {
      const { workspace, rollout, nodes } = session;
      const second = promptAt(nodes, rollout.prompts[1]!);
      for (const [path, content] of rollout.afterFirstTurn) {
        const file = await h.service.api['nodes.file']({ nodeId: nodes[second]!.id, path: join(workspace, path) });
        expect([path, file.known, file.content]).toEqual([path, 'reconstructed', content]);
      }
      // Files first seen later (a move's target, a later Add) were never seen whole before: not known here.
      const files = await h.service.api['nodes.files']({ nodeId: nodes[second]!.id });
      const unknown = files.files.flatMap((file) => (file.known === 'unknown' ? [[file.path.slice(workspace.length + 1), file.reason]] : []));
      expect(unknown.sort()).toEqual([['CHANGELOG.md', 'no-pre-state'], ['docs/notes.md', 'no-pre-state']]);
      const first = await h.service.api['nodes.files']({ nodeId: nodes[promptAt(nodes, rollout.prompts[0]!)]!.id });
      const greet = first.files.find((file) => file.path.endsWith('src/greet.ts'));
      expect(greet?.known === 'unknown' ? greet.reason : greet?.known).toBe('no-pre-state');
    });

    it('a rejected patch changes nothing', async () => {
      const { workspace, nodes } = session;
      const rejected = nodes.findIndex((node) => node.kind === 'error' || node.toolCalls.some((call) => call.outcome === 'error'));
      expect(rejected).toBeGreaterThan(0);
      const before = await h.service.api['nodes.file']({ nodeId: nodes[rejected - 1]!.id, path: join(workspace, 'src/greet.ts') });
      const after = await h.service.api['nodes.file']({ nodeId: nodes[rejected]!.id, path: join(workspace, 'src/greet.ts') });
      expect(after.content).toBe(before.content);
      expect(after.known).toBe('reconstructed');
    });
  });

  describe('rewound', () => {
    harnessPerTest();

    it('rewinds the workspace to the end of the first turn, previews exactly that, and undoes it', async () => {
      const { workspace, rollout, nodes } = await imported(mode);
      for (const [path, content] of rollout.finalFiles) {
        if (content === null) continue;
        mkdirSync(join(workspace, path, '..'), { recursive: true });
        writeFileSync(join(workspace, path), content);
      }
      const target = nodes[promptAt(nodes, rollout.prompts[1]!)]!;
      const preview = await h.service.api['rewind.preview']({ nodeId: target.id });
      expect(preview.workspace).toBe(workspace);
      expect(preview.written).toEqual(['src/greet.ts']);
      expect([...preview.created].sort()).toEqual(['notes.md', 'scratch.txt']);
      // The move's target was never seen whole before the move: the rewind leaves it and says so.
      expect(preview.deleted).toEqual([]);
      expect(preview.skipped.map((file) => file.path).sort()).toEqual(['CHANGELOG.md', 'docs/notes.md']);
      const outcome = await h.service.api['rewind.apply']({ nodeId: target.id, token: preview.token });
      if (outcome.status !== 'applied') throw new Error(`rewind stopped: ${JSON.stringify(outcome)}`);
      for (const [path, content] of rollout.afterFirstTurn) expect([path, readFileSync(join(workspace, path), 'utf8')]).toEqual([path, content]);
      await h.service.api['operations.undo']({ operationId: outcome.operation });
      for (const [path, content] of rollout.finalFiles) {
        expect([path, existsSync(join(workspace, path)) ? readFileSync(join(workspace, path), 'utf8') : null]).toEqual([path, content]);
      }
    });
  });
});

describe('Codex file states: hunks and commands', () => {
  harnessPerTest();

  it('an accepted hunk that does not apply to the replayed file makes it unknown from there, never a wrong file', async () => {
    const workspace = join(h.root, 'ws');
    const id = '019e0000-0000-7000-8000-0000000000b3';
    const builder = new RolloutBuilder({ id, cwd: workspace }).user('Edit a');
    patchStep(builder, workspace, [{ op: 'add', path: 'a.txt', content: 'one\n' }]);
    builder.command('git status --short', { exitCode: 0, output: '' }).command("sed -n '1,5p' a.txt", { exitCode: 0, output: 'one\n' }).command('rg one .', { exitCode: 0, output: 'a.txt:one' });
    // Codex says it applied this, but 'two' is not in the file as the transcript tells it.
    patchStep(builder, workspace, [{ op: 'update', path: 'a.txt', hunks: [{ lines: ['-two', '+three'] }] }]);
    builder.agent('done').complete();
    const folder = join(h.root, 'codex');
    mkdirSync(folder, { recursive: true });
    await builder.write(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
    await h.service.api['import.run']({ paths: [folder] });
    const { nodes } = await h.service.api['sessions.graph']({ sessionId: id });
    const rg = nodes.find((node) => node.label.includes('rg one'))!;
    // Read-only commands (git status, sed -n, rg) leave the file known.
    const known = await h.service.api['nodes.file']({ nodeId: rg.id, path: join(workspace, 'a.txt') });
    expect([known.known, known.content]).toEqual(['reconstructed', 'one\n']);
    const last = await h.service.api['nodes.file']({ nodeId: nodes[nodes.length - 1]!.id, path: join(workspace, 'a.txt'), replayed: true });
    expect([last.known, last.reason, last.replayed]).toEqual(['unknown', 'edit-does-not-apply', undefined]);
  });
});
