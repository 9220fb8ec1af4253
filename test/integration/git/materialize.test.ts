/** Reading snapshots back: listing, diffs, materializing a fork, restoring files in place. */
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { materializeSnapshot } from '../../../electron/git/materialize';
import { SnapshotStore } from '../../../electron/git/object-store';
import { diffSnapshots, findSnapshotFile, listSnapshotFiles } from '../../../electron/git/tree-read';
import { git, gitAvailable, NO_GIT, tempDir } from './git-fixture';

function write(root: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Every file below `root` (no .git) as path → mode + bytes, symlinks as their target. */
function describeTree(root: string, dir = root, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    const rel = path.slice(root.length + 1);
    if (entry.isSymbolicLink()) out.set(rel, `link:${readlinkSync(path)}`);
    else if (entry.isDirectory()) describeTree(root, path, out);
    else out.set(rel, `${statSync(path).mode & 0o100 ? 'x' : '-'}:${readFileSync(path).toString('base64')}`);
  }
  return out;
}

describe('snapshot read-back', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  let store: SnapshotStore;

  beforeEach(() => {
    temp = tempDir('materialize');
    workspace = join(temp.path, 'workspace');
    mkdirSync(workspace);
    store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    write(workspace, {
      'README.md': '# demo\r\n',
      'src/main.ts': 'export {};\n',
      'src/util/strings.ts': 'export const a = 1;\n',
      'bin/tool': Buffer.from([0, 1, 2, 255]),
      'ünïcødé.txt': 'unicode\n',
    });
    chmodSync(join(workspace, 'bin/tool'), 0o755);
    symlinkSync('src/main.ts', join(workspace, 'main-link'));
  });
  afterEach(() => {
    store.close();
    temp.remove();
  });

  it('lists files in git order with modes', async () => {
    const { treeOid, commitOid } = await captureDirectory(store, workspace, { commit: { message: 'x' } });
    const files = listSnapshotFiles(store, commitOid!);
    expect(files.map((f) => [f.path, f.mode])).toEqual([
      ['README.md', '100644'],
      ['bin/tool', '100755'],
      ['main-link', '120000'],
      ['src/main.ts', '100644'],
      ['src/util/strings.ts', '100644'],
      ['ünïcødé.txt', '100644'],
    ]);
    expect(findSnapshotFile(store, treeOid, 'src/util/strings.ts')?.mode).toBe('100644');
    expect(findSnapshotFile(store, treeOid, 'src/missing.ts')).toBeUndefined();
    expect(findSnapshotFile(store, treeOid, 'src')).toBeUndefined();
  });

  it('diffs two snapshots into added, modified and deleted paths', async () => {
    const before = await captureDirectory(store, workspace);
    write(workspace, { 'src/main.ts': 'changed\n', 'src/new/file.ts': 'new\n' });
    chmodSync(join(workspace, 'README.md'), 0o755);
    rmSync(join(workspace, 'ünïcødé.txt'));
    const after = await captureDirectory(store, workspace);
    const diff = diffSnapshots(store, before.treeOid, after.treeOid);
    expect(diff.added.map((f) => f.path)).toEqual(['src/new/file.ts']);
    expect(diff.modified.map((f) => f.path)).toEqual(['README.md', 'src/main.ts']);
    expect(diff.modified[0]).toMatchObject({ before: { mode: '100644' }, after: { mode: '100755' } });
    expect(diff.deleted.map((f) => f.path)).toEqual(['ünïcødé.txt']);
    expect(diffSnapshots(store, before.treeOid, before.treeOid)).toEqual({ added: [], modified: [], deleted: [] });
    expect(diffSnapshots(store, after.treeOid, before.treeOid).added.map((f) => f.path)).toEqual(['ünïcødé.txt']);
  });

  it('reports a folder replaced by a file as deletions plus an addition', async () => {
    const before = await captureDirectory(store, workspace);
    rmSync(join(workspace, 'src/util'), { recursive: true });
    writeFileSync(join(workspace, 'src/util'), 'now a file\n');
    write(workspace, { 'docs/guide.md': 'guide\n' });
    const after = await captureDirectory(store, workspace);
    const diff = diffSnapshots(store, before.treeOid, after.treeOid);
    expect(diff.deleted.map((f) => f.path)).toEqual(['src/util/strings.ts']);
    expect(diff.added.map((f) => f.path)).toEqual(['docs/guide.md', 'src/util']);
    expect(diff.modified).toEqual([]);
  });

  it('materializes a snapshot into a new folder, byte for byte', async () => {
    const { treeOid } = await captureDirectory(store, workspace);
    const fork = join(temp.path, 'fork');
    const progress: number[] = [];
    const result = await materializeSnapshot(store, treeOid, fork, { onProgress: (p) => progress.push(p.filesDone) });
    expect(result.files).toBe(6);
    expect(describeTree(fork)).toEqual(describeTree(workspace));
    expect(lstatSync(join(fork, 'main-link')).isSymbolicLink()).toBe(true);
    expect(progress.at(-1)).toBe(6);
    const again = await captureDirectory(store, fork);
    expect(again.treeOid).toBe(treeOid);
    await expect(materializeSnapshot(store, treeOid, fork)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it.skipIf(!gitAvailable)(`leaves the user's repository untouched${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    git(workspace, ['init', '-q']);
    git(workspace, ['add', '-A']);
    git(workspace, ['commit', '-q', '-m', 'user commit']);
    const before = describeTree(join(workspace, '.git'));
    const status = git(workspace, ['status', '--porcelain']);
    const { treeOid } = await captureDirectory(store, workspace, { commit: { message: 'snap', snapshotId: 'user-repo' } });
    await materializeSnapshot(store, treeOid, join(temp.path, 'fork'));
    expect(describeTree(join(workspace, '.git'))).toEqual(before);
    expect(git(workspace, ['status', '--porcelain'])).toBe(status);
    expect(listSnapshotFiles(store, treeOid).some((f) => f.path.startsWith('.git/'))).toBe(false);
  });
});
