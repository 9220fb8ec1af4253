/** Capture into the snapshot store: byte exactness, git's own view of the store, incremental work, limits. */
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import git_ from 'isomorphic-git';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../../shared/errors';
import { captureDirectory } from '../../../electron/git/capture';
import { SnapshotStore, snapshotRefName } from '../../../electron/git/object-store';
import { StatCache } from '../../../electron/git/stat-cache';
import { findSnapshotFile, listSnapshotFiles, readSnapshotFile } from '../../../electron/git/tree-read';
import { git, gitAvailable, gitStatus, NO_GIT, tempDir } from './git-fixture';

const PAST = new Date('2024-01-02T03:04:05Z');

/** Files that an encoding or line-ending conversion would change. */
const TRICKY: Readonly<Record<string, Buffer>> = {
  'crlf.txt': Buffer.from('one\r\ntwo\r\n'),
  'bom.txt': Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a]),
  'invalid-utf8.txt': Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0xc3, 0x28, 0x0a]),
  'binary.bin': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff)),
  'empty': Buffer.alloc(0),
  'no-final-newline.txt': Buffer.from('last line'),
  'ünïcødé/文件.md': Buffer.from('# 你好\n'),
  'spaces in name/a b.txt': Buffer.from('spaced\n'),
  'deep/a/b/c/d/e/f.txt': Buffer.from('deep\n'),
};

function writeWorkspace(root: string): void {
  for (const [path, bytes] of Object.entries(TRICKY)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  writeFileSync(join(root, 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(root, 'run.sh'), 0o755);
  symlinkSync('crlf.txt', join(root, 'link-to-file'));
  symlinkSync('deep/a', join(root, 'link-to-dir'));
  symlinkSync('../outside/nowhere', join(root, 'dangling-link'));
  mkdirSync(join(root, 'empty-folder'));
  mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
  writeFileSync(join(root, 'node_modules/pkg/index.js'), 'ignored');
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
}

/** Puts every file's mtime in the past, so the stat cache trusts it (no racy-timestamp re-reads). */
function age(root: string, dir = root): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === '.git' || entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) age(root, path);
    else utimesSync(path, PAST, PAST);
  }
}

describe('captureDirectory', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  let store: SnapshotStore;

  beforeEach(() => {
    temp = tempDir('capture');
    workspace = join(temp.path, 'workspace');
    mkdirSync(workspace);
    store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
  });
  afterEach(() => {
    store.close();
    temp.remove();
  });

  it('keeps every byte, mode and symlink', async () => {
    writeWorkspace(workspace);
    const result = await captureDirectory(store, workspace);
    for (const [path, bytes] of Object.entries(TRICKY)) {
      const file = readSnapshotFile(store, result.treeOid, path);
      expect(file?.mode, path).toBe('100644');
      expect(Buffer.compare(file!.bytes, bytes), path).toBe(0);
    }
    expect(readSnapshotFile(store, result.treeOid, 'run.sh')?.mode).toBe('100755');
    expect(readSnapshotFile(store, result.treeOid, 'link-to-file')).toEqual({ mode: '120000', bytes: Buffer.from('crlf.txt') });
    expect(readSnapshotFile(store, result.treeOid, 'link-to-dir')).toEqual({ mode: '120000', bytes: Buffer.from('deep/a') });
    expect(readSnapshotFile(store, result.treeOid, 'dangling-link')?.bytes.toString()).toBe('../outside/nowhere');
    const paths = listSnapshotFiles(store, result.treeOid).map((f) => f.path);
    expect(paths).not.toContain('node_modules/pkg/index.js');
    expect(paths.some((p) => p.startsWith('empty-folder'))).toBe(false);
    expect(result.files).toBe(paths.length);
  });

  it.skipIf(!gitAvailable)(`builds the same tree as git and passes git fsck --strict${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    writeWorkspace(workspace);
    const result = await captureDirectory(store, workspace, { commit: { message: 'first snapshot', snapshotId: 'snap-1' } });
    git(workspace, ['init', '-q']);
    git(workspace, ['add', '-A']);
    expect(result.treeOid).toBe(git(workspace, ['write-tree']).trim());
    expect(git(workspace, ['ls-tree', '-r', result.treeOid])).toBe(git(store.gitdir, ['ls-tree', '-r', result.treeOid]));
    git(store.gitdir, ['fsck', '--strict', '--no-dangling']);
    expect(git(store.gitdir, ['rev-parse', snapshotRefName('snap-1')]).trim()).toBe(result.commitOid);
    expect(git(store.gitdir, ['cat-file', '-p', result.commitOid!])).toContain(`tree ${result.treeOid}`);
    // The snapshot lives only in Arbor's store: the user's repository never sees the commit.
    expect(gitStatus(workspace, ['cat-file', '-e', result.commitOid!]).status).not.toBe(0);
  });

  it('is readable by isomorphic-git through the shared cache', async () => {
    writeWorkspace(workspace);
    const result = await captureDirectory(store, workspace, { commit: { message: 'snap' } });
    const { gitdir, cache } = store.isomorphicGitOptions();
    const commit = await git_.readCommit({ fs, gitdir, cache, oid: result.commitOid! });
    expect(commit.commit.tree).toBe(result.treeOid);
    const blob = await git_.readBlob({ fs, gitdir, cache, oid: result.treeOid, filepath: 'invalid-utf8.txt' });
    expect(Buffer.compare(Buffer.from(blob.blob), TRICKY['invalid-utf8.txt']!)).toBe(0);
  });

  it('re-reads only the files that changed, and reuses unchanged folders', async () => {
    for (let i = 0; i < 50; i++) {
      mkdirSync(join(workspace, `dir${i % 5}`), { recursive: true });
      writeFileSync(join(workspace, `dir${i % 5}`, `file${i}.txt`), `content ${i}\n`);
    }
    age(workspace);
    const cache = await StatCache.forDirectory(store, workspace);
    const first = await captureDirectory(store, workspace, { statCache: cache });
    expect(first.filesRead).toBe(50);

    const reloaded = await StatCache.forDirectory(store, workspace, { reload: true });
    expect(reloaded).not.toBe(cache);
    expect(reloaded.size).toBe(50);
    const unchanged = await captureDirectory(store, workspace, { statCache: reloaded });
    expect(unchanged).toMatchObject({ treeOid: first.treeOid, filesRead: 0, objectsWritten: 0, bytesRead: 0 });

    writeFileSync(join(workspace, 'dir1', 'file1.txt'), 'changed\n');
    writeFileSync(join(workspace, 'dir2', 'new.txt'), 'new\n');
    age(workspace);
    const changed = await captureDirectory(store, workspace, { statCache: reloaded });
    expect(changed.filesRead).toBe(2);
    expect(changed.treeOid).not.toBe(first.treeOid);
    // Two blobs, two folder trees and the root tree; the three other folders were reused.
    expect(changed.objectsWritten).toBe(5);
    const fresh = await captureDirectory(store, workspace);
    expect(fresh.treeOid).toBe(changed.treeOid);
  });

  it('journals exactly what changed: a reloaded cache drops deleted and racy files and keeps new entries', async () => {
    for (let i = 0; i < 6; i++) writeFileSync(join(workspace, `f${i}.txt`), `content ${i}\n`);
    age(workspace);
    const cache = await StatCache.forDirectory(store, workspace);
    await captureDirectory(store, workspace, { statCache: cache });
    expect((await StatCache.forDirectory(store, workspace, { reload: true })).size).toBe(6);

    rmSync(join(workspace, 'f0.txt'));
    writeFileSync(join(workspace, 'f1.txt'), 'changed\n');
    writeFileSync(join(workspace, 'f6.txt'), 'new\n');
    age(workspace);
    writeFileSync(join(workspace, 'f2.txt'), 'racy\n'); // modified just now: not trusted, so not kept
    const second = await captureDirectory(store, workspace, { statCache: cache });
    const reloaded = await StatCache.load(StatCache.fileFor(store, workspace));
    expect(reloaded.size).toBe(5);
    expect(reloaded.get('f0.txt')).toBeUndefined();
    expect(reloaded.get('f2.txt')).toBeUndefined();
    expect(reloaded.get('f1.txt')?.oid).toBe(findSnapshotFile(store, second.treeOid, 'f1.txt')?.oid);
    expect(reloaded.get('f6.txt')?.oid).toBe(findSnapshotFile(store, second.treeOid, 'f6.txt')?.oid);
    expect(reloaded.get('f3.txt')).toEqual(cache.get('f3.txt'));
    // The next capture from the reloaded cache re-reads only the racy file.
    expect((await captureDirectory(store, workspace, { statCache: reloaded })).filesRead).toBe(1);
  });

  it('keeps a store’s stat caches in memory, one per folder, and a cache another process overtook stays right', async () => {
    const other = join(temp.path, 'other');
    mkdirSync(other);
    writeFileSync(join(workspace, 'a.txt'), 'one\n');
    age(workspace);
    const cache = await StatCache.forDirectory(store, workspace);
    expect(await StatCache.forDirectory(store, workspace)).toBe(cache);
    expect(await StatCache.forDirectory(store, other)).not.toBe(cache);
    await captureDirectory(store, workspace, { statCache: cache });

    // Another process (its own store handle) captures a change and journals it; this one's memory is older.
    const second = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    try {
      const theirs = await StatCache.forDirectory(second, workspace);
      expect(theirs).not.toBe(cache);
      writeFileSync(join(workspace, 'a.txt'), 'two, longer\n');
      age(workspace);
      await captureDirectory(second, workspace, { statCache: theirs });
    } finally {
      second.close();
    }
    const again = await StatCache.forDirectory(store, workspace);
    expect(again).toBe(cache);
    const result = await captureDirectory(store, workspace, { statCache: again });
    expect(result.filesRead).toBe(1);
    expect(readSnapshotFile(store, result.treeOid, 'a.txt')?.bytes.toString()).toBe('two, longer\n');
  });

  it('forgets the stat cache once the store has removed objects', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'one\n');
    age(workspace);
    const cache = await StatCache.forDirectory(store, workspace);
    await captureDirectory(store, workspace, { statCache: cache });
    expect((await captureDirectory(store, workspace, { statCache: cache })).filesRead).toBe(0);
    await store.recordRemoval();
    const reopened = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    expect(reopened.removalCount).toBe(1);
    const reloaded = await StatCache.forDirectory(reopened, workspace);
    expect((await captureDirectory(reopened, workspace, { statCache: reloaded })).filesRead).toBe(1);
    expect((await StatCache.forDirectory(reopened, workspace)).removals).toBe(1);
    reopened.close();
  });

  it('does not trust the cache for a file modified within the racy window', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'one\n');
    const cache = await StatCache.forDirectory(store, workspace);
    await captureDirectory(store, workspace, { statCache: cache });
    // Same size, and an mtime that may equal the one cached: must still be seen.
    writeFileSync(join(workspace, 'a.txt'), 'two\n');
    const second = await captureDirectory(store, workspace, { statCache: cache });
    expect(readSnapshotFile(store, second.treeOid, 'a.txt')?.bytes.toString()).toBe('two\n');
  });

  it('records files over the size limit as skipped, not stored', async () => {
    writeFileSync(join(workspace, 'small.txt'), 'small');
    writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(5000, 1));
    const result = await captureDirectory(store, workspace, { maxFileBytes: 4096, commit: { message: 'limited' } });
    expect(result.skipped).toEqual([{ path: 'big.bin', bytes: 5000, reason: 'too-large' }]);
    expect(listSnapshotFiles(store, result.treeOid).map((f) => f.path)).toEqual(['small.txt']);
    expect(store.readCommit(result.commitOid!).message).toContain('Arbor-Skipped: {"path":"big.bin","bytes":5000,"reason":"too-large"}');
  });

  it('stores identical content once, across captures of different workspaces', async () => {
    const other = join(temp.path, 'other');
    mkdirSync(other);
    const shared = Buffer.alloc(10_000, 'shared content ');
    writeFileSync(join(workspace, 'a.txt'), shared);
    writeFileSync(join(workspace, 'b.txt'), shared);
    writeFileSync(join(other, 'c.txt'), shared);
    const first = await captureDirectory(store, workspace);
    expect(first.objectsWritten).toBe(2); // one blob for both files, one tree
    const second = await captureDirectory(store, other);
    expect(second.objectsWritten).toBe(1); // only the new tree
    const packBytes = readdirSync(store.packDir)
      .filter((name) => name.endsWith('.pack'))
      .reduce((sum, name) => sum + readFileSync(join(store.packDir, name)).length, 0);
    expect(packBytes).toBeLessThan(2 * shared.length);
  });

  it('stops with CANCELLED when aborted', async () => {
    writeWorkspace(workspace);
    const controller = new AbortController();
    controller.abort();
    await expect(captureDirectory(store, workspace, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('reports NOT_FOUND for a missing folder and progress for a real one', async () => {
    await expect(captureDirectory(store, join(temp.path, 'missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    writeWorkspace(workspace);
    const seen: number[] = [];
    await captureDirectory(store, workspace, { onProgress: (p) => seen.push(p.filesDone) });
    expect(seen.at(-1)).toBeGreaterThan(0);
  });

  it('merges small packs so lookups stay fast after many captures', async () => {
    for (let i = 0; i < 20; i++) {
      writeFileSync(join(workspace, 'counter.txt'), `capture ${i}\n`);
      await captureDirectory(store, workspace);
    }
    expect(store.packCount).toBeLessThanOrEqual(17);
    const last = await captureDirectory(store, workspace);
    expect(readSnapshotFile(store, last.treeOid, 'counter.txt')?.bytes.toString()).toBe('capture 19\n');
  });
});
