/**
 * What the engine refuses before its first write: hostile paths, ignored files, a workspace that changed since
 * the preview, an undo over later edits; and what a cancelled operation leaves behind (nothing).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArborError, CancelledError } from '../../../shared/errors';
import { storeBlobs } from '../../../electron/git/workspace-files';
import { OPERATION_REF_PREFIX } from '../../../electron/operations/safety-snapshot';
import type { FileVersion, OperationPlan, PlannedFileChange } from '../../../electron/operations/operation-types';
import { capture, listWorkspace, openEngine, planBetween, tempDir, writeEntry, type Engine } from './operation-fixture';

const text = (value: string) => ({ kind: 'file' as const, bytes: Buffer.from(value) });

describe('operation engine refusals', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  let outside: string;
  let engine: Engine;
  let blob: FileVersion;

  const plan = (changes: readonly PlannedFileChange[]): OperationPlan => ({ kind: 'rewind', workspace, nodeId: 'n1', changes, sideEffects: [] });
  const snapshot = () => ({ workspace: listWorkspace(workspace), outside: listWorkspace(outside) });

  beforeEach(async () => {
    temp = tempDir('operations-refusals');
    workspace = join(temp.path, 'workspace');
    outside = join(temp.path, 'outside');
    mkdirSync(outside);
    writeEntry(outside, 'secret.txt', text('outside the workspace\n'));
    for (const [path, value] of Object.entries({
      '.gitignore': '*.log\nbuild/\n',
      'a.txt': 'a\n',
      'x.log': 'ignored\n',
      'build/out.txt': 'ignored folder\n',
      'sub/b.txt': 'b\n',
      '.git/config': '[core]\n',
      'sub/.git/x': 'nested repository\n',
    })) {
      writeEntry(workspace, path, text(value));
    }
    symlinkSync(outside, join(workspace, 'linked'));
    engine = openEngine(join(temp.path, 'data'));
    const [oid] = await storeBlobs(engine.objects, [Buffer.from('hostile\n')]);
    blob = { oid: oid!, mode: '100644' };
  });
  afterEach(() => {
    engine.close();
    temp.remove();
  });

  it.each([
    ['../x', 'a parent reference'],
    ['/abs', 'an absolute path'],
    ['a/../../b', 'a parent reference in the middle'],
    ['.git/config', 'the repository'],
    ['sub/.git/x', 'a nested repository'],
    ['linked/secret.txt', 'a symlinked parent folder'],
    ['x.log', 'an ignored file'],
    ['build/new.txt', 'a file in an ignored folder'],
    ['./a.txt', 'a dot segment'],
    ['sub//b.txt', 'an empty segment'],
  ])('refuses %s (%s) before any write', async (path) => {
    const before = snapshot();
    // A harmless change first: the refusal must come before it is written too.
    const changes = [{ path: 'new-first.txt', expected: null, target: blob }, { path, expected: null, target: blob }];
    const error = await engine.runner.apply(plan(changes)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArborError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', data: { path } });
    expect(snapshot()).toEqual(before);
    expect(engine.runner.list()).toEqual([]);
    expect(await engine.objects.listRefs(OPERATION_REF_PREFIX)).toEqual(new Map());
  });

  it('refuses a plan that sets a path twice, or a file and a file inside it', async () => {
    const before = snapshot();
    await expect(engine.runner.apply(plan([{ path: 'n.txt', expected: null, target: blob }, { path: 'n.txt', expected: null, target: null }]))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(engine.runner.apply(plan([{ path: 'n', expected: null, target: blob }, { path: 'n/m', expected: null, target: blob }]))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(engine.runner.apply(plan([{ path: 'a.txt/m', expected: null, target: blob }]))).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { path: 'a.txt/m' } });
    expect(snapshot()).toEqual(before);
    expect(engine.runner.list()).toEqual([]);
  });

  it('refuses a relative or missing workspace', async () => {
    const changes = [{ path: 'n.txt', expected: null, target: blob }];
    await expect(engine.runner.apply({ ...plan(changes), workspace: 'relative/workspace' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(engine.runner.apply({ ...plan(changes), workspace: join(temp.path, 'missing') })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(engine.runner.list()).toEqual([]);
  });

  it('stops with workspace-changed when a file changed between preview and apply, writing nothing', async () => {
    const treeBefore = await capture(engine.objects, workspace);
    writeFileSync(join(workspace, 'a.txt'), 'a, edited by the agent\n');
    writeFileSync(join(workspace, 'created.txt'), 'new\n');
    rmSync(join(workspace, 'sub/b.txt'));
    const treeAfter = await capture(engine.objects, workspace);
    // The preview: back from "after" to "before".
    const changes = planBetween(engine.objects, treeAfter, treeBefore);
    expect(changes.map((c) => c.path).sort()).toEqual(['a.txt', 'created.txt', 'sub/b.txt']);
    // The user edits a planned file and recreates a deleted one before applying.
    writeFileSync(join(workspace, 'a.txt'), 'a, edited by the user\n');
    writeFileSync(join(workspace, 'sub/b.txt'), 'back\n');
    const before = snapshot();
    const outcome = await engine.runner.apply(plan(changes));
    expect(outcome).toEqual({ status: 'workspace-changed', changed: ['a.txt', 'sub/b.txt'] });
    expect(snapshot()).toEqual(before);
    expect(engine.runner.list()).toEqual([]);
  });

  it('undo refuses when the workspace changed after the operation, and undoes once', async () => {
    const treeBefore = await capture(engine.objects, workspace);
    writeFileSync(join(workspace, 'a.txt'), 'a, edited\n');
    writeFileSync(join(workspace, 'c.txt'), 'created\n');
    const treeAfter = await capture(engine.objects, workspace);
    const listAfter = listWorkspace(workspace);
    const applied = await engine.runner.apply(plan(planBetween(engine.objects, treeAfter, treeBefore)));
    if (applied.status !== 'applied') throw new Error('not applied');
    expect(applied).toMatchObject({ written: ['a.txt'], created: [], deleted: ['c.txt'] });

    writeFileSync(join(workspace, 'a.txt'), 'edited again after the rewind\n');
    writeFileSync(join(workspace, 'c.txt'), 'and recreated\n');
    const before = snapshot();
    expect(await engine.runner.undo(applied.operation)).toEqual({ status: 'workspace-changed', changed: ['a.txt', 'c.txt'] });
    expect(snapshot()).toEqual(before);
    expect(engine.runner.list().map((o) => [o.kind, o.status])).toEqual([['rewind', 'applied']]);

    writeEntry(workspace, 'a.txt', text('a\n'));
    rmSync(join(workspace, 'c.txt'));
    const undone = await engine.runner.undo(applied.operation);
    expect(undone).toMatchObject({ status: 'applied', kind: 'undo', written: ['a.txt'], created: ['c.txt'], deleted: [] });
    expect(listWorkspace(workspace)).toEqual(listAfter);
    const [undo, rewind] = engine.runner.list();
    expect([undo?.kind, undo?.status, undo?.undoes, rewind?.status]).toEqual(['undo', 'applied', applied.operation, 'undone']);
    await expect(engine.runner.undo(applied.operation)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(engine.runner.undo('op-unknown')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a cancelled operation puts back what it wrote and throws CancelledError', async () => {
    const treeBefore = await capture(engine.objects, workspace);
    for (let i = 0; i < 6; i++) writeFileSync(join(workspace, `f${i}.txt`), `file ${i}\n`);
    writeFileSync(join(workspace, 'a.txt'), 'changed\n');
    const treeAfter = await capture(engine.objects, workspace);
    const before = snapshot();
    const controller = new AbortController();
    const phases: string[] = [];
    const error = await engine.runner
      .apply(plan(planBetween(engine.objects, treeAfter, treeBefore)), {
        signal: controller.signal,
        onProgress: (progress) => {
          phases.push(progress.phase);
          if (progress.phase === 'write' && progress.done === 3) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(phases.filter((p) => p === 'write')).toHaveLength(3);
    expect(snapshot()).toEqual(before);
    expect(engine.runner.list().map((o) => o.status)).toEqual(['rolled-back']);
  });

  it('keeps the replaced bytes in the snapshot store under the operation ref', async () => {
    const treeBefore = await capture(engine.objects, workspace);
    writeFileSync(join(workspace, 'a.txt'), 'replaced bytes\n');
    const treeAfter = await capture(engine.objects, workspace);
    const applied = await engine.runner.apply(plan(planBetween(engine.objects, treeAfter, treeBefore)));
    if (applied.status !== 'applied') throw new Error('not applied');
    const commit = await engine.objects.readRef(`${OPERATION_REF_PREFIX}${applied.operation}`);
    const tree = engine.objects.readCommit(commit!).tree;
    const sides = Object.fromEntries(engine.objects.readTree(tree).map((e) => [e.name, e.oid]));
    const beforeFile = engine.objects.readTree(sides.before!).find((e) => e.name === 'a.txt');
    expect(engine.objects.readBlob(beforeFile!.oid).toString()).toBe('replaced bytes\n');
    const afterFile = engine.objects.readTree(sides.after!).find((e) => e.name === 'a.txt');
    expect(engine.objects.readBlob(afterFile!.oid).toString()).toBe('a\n');
  });
});
