/**
 * Regression: names that become `.git` on another filesystem (`.GIT/config`, `.git./config`, `git~1/…`,
 * `.git` followed by an ignorable code point) passed the path check, at any depth. Now the engine refuses
 * them before its first write, capture never puts them in a snapshot, and a fork never writes them out.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { materializeSnapshot } from '../../../electron/git/materialize';
import { listSnapshotFiles } from '../../../electron/git/tree-read';
import { storeBlobs } from '../../../electron/git/workspace-files';
import { OPERATION_REF_PREFIX } from '../../../electron/operations/safety-snapshot';
import type { FileVersion, OperationPlan, PlannedFileChange } from '../../../electron/operations/operation-types';
import { GIT_PATH_CASES } from '../../unit/electron/git/git-path-cases';
import { listWorkspace, openEngine, tempDir, writeEntry, type Engine } from './operation-fixture';

const text = (value: string) => ({ kind: 'file' as const, bytes: Buffer.from(value) });

/** Look-alikes of the repository folder, as the issue found them, at the root and deeper. */
const LOOK_ALIKES = ['.GIT/config', '.Git/hooks/pre-commit', '.git./config', '.git /config', '.git\u200c/config', '.git\ufeff/HEAD', 'GIT~1/config', '.git::$INDEX_ALLOCATION/config'];
const DEPTHS = ['', 'src/', 'src/deep/er/'];
const AT_DEPTHS = LOOK_ALIKES.flatMap((path) => DEPTHS.map((folder) => folder + path));
/** The look-alike folder of each path in AT_DEPTHS (what capture skips). */
const LOOK_ALIKE_FOLDERS = LOOK_ALIKES.flatMap((path) => DEPTHS.map((folder) => folder + path.split('/')[0]!));

describe('names that become .git elsewhere', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  let engine: Engine;
  let blob: FileVersion;

  const plan = (changes: readonly PlannedFileChange[]): OperationPlan => ({ kind: 'rewind', workspace, nodeId: 'n1', changes, sideEffects: [] });

  beforeEach(async () => {
    temp = tempDir('look-alikes');
    workspace = join(temp.path, 'workspace');
    writeEntry(workspace, 'a.txt', text('a\n'));
    writeEntry(workspace, '.git/config', text('[core]\n'));
    engine = openEngine(join(temp.path, 'data'));
    const [oid] = await storeBlobs(engine.objects, [Buffer.from('[core]\n\thooksPath = /tmp/evil\n')]);
    blob = { oid: oid!, mode: '100644' };
  });
  afterEach(() => {
    engine.close();
    temp.remove();
  });

  it.each([...AT_DEPTHS, ...GIT_PATH_CASES.filter((c) => c.refused && c.symlink !== true && c.path !== '').map((c) => c.path)])(
    'the engine refuses %j with BAD_REQUEST before any write',
    async (path) => {
      const before = listWorkspace(workspace);
      const changes = [{ path: 'new-first.txt', expected: null, target: blob }, { path, expected: null, target: blob }];
      await expect(engine.runner.apply(plan(changes))).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { path } });
      expect(listWorkspace(workspace)).toEqual(before);
      expect(engine.runner.list()).toEqual([]);
      expect(await engine.objects.listRefs(OPERATION_REF_PREFIX)).toEqual(new Map());
    },
  );

  it('the engine refuses a symlink named .gitmodules (or its short name) but writes a regular one', async () => {
    const [target] = await storeBlobs(engine.objects, [Buffer.from('/etc/passwd')]);
    for (const path of ['.gitmodules', 'sub/GI7EBA~1']) {
      const link = [{ path, expected: null, target: { oid: target!, mode: '120000' as const } }];
      await expect(engine.runner.apply(plan(link))).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { path } });
    }
    const outcome = await engine.runner.apply(plan([{ path: '.gitmodules', expected: null, target: blob }]));
    expect(outcome).toMatchObject({ status: 'applied', created: ['.gitmodules'] });
  });

  it('capture leaves them out of the snapshot and lists them as skipped', async () => {
    for (const path of AT_DEPTHS) writeEntry(workspace, path, text('looks like the repository\n'));
    writeEntry(workspace, '.github/workflows/ci.yml', text('on: push\n'));
    writeEntry(workspace, 'git~2/notes.txt', text('not a short name git uses\n'));
    const captured = await captureDirectory(engine.objects, workspace);
    const paths = listSnapshotFiles(engine.objects, captured.treeOid).map((file) => file.path);
    expect(paths).toEqual(['.github/workflows/ci.yml', 'a.txt', 'git~2/notes.txt']);
    expect(captured.skipped.map((file) => [file.path, file.reason]).sort()).toEqual(LOOK_ALIKE_FOLDERS.sort().map((folder) => [folder, 'git-name']));
  });

  it('a fork refuses a snapshot tree that names one (written by an older Arbor), creating nothing', async () => {
    const writer = engine.objects.createWriter();
    const inner = writer.writeTree([{ mode: '100644', name: 'config', oid: blob.oid }]);
    const tree = writer.writeTree([
      { mode: '40000', name: '.GIT', oid: inner },
      { mode: '100644', name: 'a.txt', oid: blob.oid },
    ]);
    await writer.finish();
    const target = join(temp.path, 'fork');
    mkdirSync(target);
    await expect(materializeSnapshot(engine.objects, tree, target)).rejects.toMatchObject({ code: 'INTERNAL', data: { name: '.GIT' } });
    expect(existsSync(join(target, '.GIT'))).toBe(false);
    expect(listWorkspace(target)).toEqual(new Map());
  });
});
