/**
 * SnapshotStore.sizeOf: a blob's size from its pack entry's header (what `arbor files` lists for every file of
 * an exact snapshot), equal to the blob's length whether the pack is Arbor's own or one `git repack` rewrote
 * with deltas.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { SnapshotStore } from '../../../electron/git/object-store';
import { listSnapshotFiles } from '../../../electron/git/tree-read';
import { git, gitAvailable, NO_GIT, tempDir } from './git-fixture';

/** Sizes around the header's varint boundaries (4 bits, then 7 per byte), empty and large. */
const SIZES = [0, 1, 15, 16, 2047, 2048, 262_143, 262_144, 3_000_001];

function writeFiles(root: string, salt: string): void {
  mkdirSync(root, { recursive: true });
  for (const size of SIZES) {
    // Mostly shared text with a salted tail, so a repack finds deltas between the two folders' versions.
    const line = `line of a file of ${size} bytes\n`;
    const body = Buffer.alloc(size, line);
    if (size > 64) body.write(salt, size - salt.length - 1);
    writeFileSync(join(root, `f-${size}.txt`), body);
  }
}

describe('SnapshotStore.sizeOf', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: SnapshotStore;

  beforeEach(() => {
    temp = tempDir('object-size');
    store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
  });
  afterEach(() => {
    store.close();
    temp.remove();
  });

  it('gives every captured blob’s length without reading it', async () => {
    writeFiles(join(temp.path, 'w'), 'one');
    const { treeOid } = await captureDirectory(store, join(temp.path, 'w'));
    const files = listSnapshotFiles(store, treeOid);
    expect(files).toHaveLength(SIZES.length);
    for (const file of files) expect(store.sizeOf(file.oid), file.path).toBe(store.readBlob(file.oid).length);
    expect(() => store.sizeOf('0'.repeat(40))).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }) as Error);
  });

  it.skipIf(!gitAvailable)(`gives a delta’s result size after git repack rewrote the store with deltas${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    writeFiles(join(temp.path, 'a'), 'first version');
    writeFiles(join(temp.path, 'b'), 'second version!');
    const a = await captureDirectory(store, join(temp.path, 'a'), { commit: { message: 'a', snapshotId: 'a' } });
    const b = await captureDirectory(store, join(temp.path, 'b'), { commit: { message: 'b', snapshotId: 'b' } });
    store.close();
    git(store.gitdir, ['repack', '-a', '-d', '-f', '--window=50', '--depth=10']);
    const verify = git(store.gitdir, ['verify-pack', '-v', ...listPacks(store)]);
    expect(verify, 'the repacked store holds deltas').toMatch(/^[0-9a-f]{40} blob +\d+ \d+ \d+ \d+ [0-9a-f]{40}$/m);
    const reopened = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    try {
      for (const tree of [a.treeOid, b.treeOid]) {
        for (const file of listSnapshotFiles(reopened, tree)) expect(reopened.sizeOf(file.oid), file.path).toBe(reopened.readBlob(file.oid).length);
      }
    } finally {
      reopened.close();
    }
  });
});

function listPacks(store: SnapshotStore): string[] {
  return readdirSync(store.packDir)
    .filter((name) => name.endsWith('.idx'))
    .map((name) => join(store.packDir, name));
}
