/** The two-thread stat pass: same numbers as lstat for every path, and a large capture still equals git's tree. */
import { chmodSync, lstatSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { SnapshotStore } from '../../../electron/git/object-store';
import { STAT_FIELDS, statFiles } from '../../../electron/git/parallel-stat';
import { StatCache } from '../../../electron/git/stat-cache';
import { git, gitAvailable, NO_GIT, tempDir } from './git-fixture';

// Above parallel-stat's threshold, so the helper worker takes part.
const COUNT = 2200;

describe('statFiles and a capture large enough to stat on two threads', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  const paths: string[] = [];

  beforeAll(() => {
    temp = tempDir('parallel-stat');
    workspace = join(temp.path, 'workspace');
    for (let i = 0; i < COUNT; i++) {
      const path = `d${i % 7}/e${i % 3}/f${i}.txt`;
      mkdirSync(join(workspace, path, '..'), { recursive: true });
      writeFileSync(join(workspace, path), `file ${i}\n`.repeat(i % 5));
      paths.push(path);
    }
    chmodSync(join(workspace, paths[10]!), 0o755);
    unlinkSync(join(workspace, paths[20]!));
    symlinkSync('f1.txt', join(workspace, paths[20]!));
    paths.push('no/such/file.txt');
  });
  afterAll(() => temp.remove());

  it('gives lstat’s size, mtime, inode and mode for every path, and -1 for a missing one', () => {
    for (const list of [paths, paths.slice(0, 50)]) {
      const stats = statFiles(workspace, list, () => undefined);
      expect(stats.length).toBe(list.length * STAT_FIELDS);
      const expected = new Float64Array(list.length * STAT_FIELDS);
      list.forEach((path, i) => {
        const o = i * STAT_FIELDS;
        const s = lstatSync(join(workspace, path), { throwIfNoEntry: false });
        if (s) expected.set([s.size, s.mtimeMs, s.ino, s.mode], o);
        else expected[o + 3] = -1;
      });
      expect(Array.from(stats)).toEqual(Array.from(expected));
      if (list === paths) expect(stats[(list.length - 1) * STAT_FIELDS + 3]).toBe(-1);
    }
  });

  it('stops between chunks when the check throws', () => {
    let calls = 0;
    const check = () => {
      if (++calls > 2) throw new Error('stop');
    };
    expect(() => statFiles(workspace, paths, check)).toThrow('stop');
  });

  it.skipIf(!gitAvailable)(`captures the tree git writes, fully and incrementally${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    const store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    try {
      const cache = await StatCache.forDirectory(store, workspace);
      git(workspace, ['init', '-q']);
      const first = await captureDirectory(store, workspace, { statCache: cache });
      git(workspace, ['add', '-A']);
      expect(first.treeOid).toBe(git(workspace, ['write-tree']).trim());
      expect(first.files).toBe(COUNT);

      writeFileSync(join(workspace, paths[2100]!), 'changed\n');
      chmodSync(join(workspace, paths[2150]!), 0o755);
      unlinkSync(join(workspace, paths[1500]!));
      const second = await captureDirectory(store, workspace, { statCache: cache });
      git(workspace, ['add', '-A']);
      expect(second.treeOid).toBe(git(workspace, ['write-tree']).trim());
      expect(second.files).toBe(COUNT - 1);
    } finally {
      store.close();
    }
  });
});
