/**
 * The two-thread write pass under fork materialization: every file lands exactly once with its bytes and
 * mode whichever thread wrote it, a failure on the helper's side stops both threads and names the file, and
 * a cancelled fork writes nothing more once it has thrown.
 */
import { availableParallelism } from 'node:os';
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { materializeSnapshot } from '../../../electron/git/materialize';
import { SnapshotStore } from '../../../electron/git/object-store';
import { WritePass, type NewFile } from '../../../electron/git/parallel-write';
import { tempDir } from './git-fixture';

const COUNT = 3000;
const twoCores = availableParallelism() > 1;

function countFiles(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) count += entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1;
  return count;
}

describe('WritePass and a fork large enough to write on two threads', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: SnapshotStore;
  let treeOid: string;

  beforeAll(async () => {
    temp = tempDir('parallel-write');
    const workspace = join(temp.path, 'workspace');
    for (let i = 0; i < COUNT; i++) {
      mkdirSync(join(workspace, `d${i % 9}`, `e${i % 4}`), { recursive: true });
      writeFileSync(join(workspace, `d${i % 9}`, `e${i % 4}`, `f${i}.txt`), `file ${i}\n`.repeat(i % 7), { mode: i % 10 === 0 ? 0o755 : 0o644 });
    }
    store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    treeOid = (await captureDirectory(store, workspace)).treeOid;
  });
  afterAll(() => {
    store.close();
    temp.remove();
  });

  it('writes every file once, with its bytes and mode, on both threads', async () => {
    const root = join(temp.path, 'pass');
    mkdirSync(join(root, 'sub'), { recursive: true });
    const pass = new WritePass(root);
    const files: NewFile[] = Array.from({ length: 1000 }, (_, i) => ({
      path: `sub/n${i}`,
      mode: i % 50 === 7 ? '120000' : i % 3 === 0 ? '100755' : '100644',
      bytes: Buffer.from(i % 50 === 7 ? `n${i - 1}` : `content ${i}\r\n\u00ff`, 'latin1'),
    }));
    for (let i = 0; i < files.length; i += 100) pass.write(files.slice(i, i + 100));
    await pass.finish();
    expect(pass.filesDone).toBe(files.length);
    if (twoCores) expect(pass.helperChunks).toBeGreaterThan(0);
    for (const file of files) {
      const path = join(root, file.path);
      if (file.mode === '120000') {
        expect(readlinkSync(path)).toBe(file.bytes.toString('latin1'));
        continue;
      }
      expect(readFileSync(path)).toEqual(file.bytes);
      expect(lstatSync(path).mode & 0o100, file.path).toBe(file.mode === '100755' ? 0o100 : 0);
    }
  });

  it('materializes a 3,000-file snapshot whose capture equals the source', async () => {
    const fork = join(temp.path, 'fork');
    const progress: number[] = [];
    const result = await materializeSnapshot(store, treeOid, fork, { onProgress: (p) => progress.push(p.filesDone) });
    expect(result.files).toBe(COUNT);
    expect(progress.at(-1)).toBe(COUNT);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect((await captureDirectory(store, fork)).treeOid).toBe(treeOid);
  });

  it.skipIf(!twoCores)('stops both threads at a failure on the helper’s side and names the file', async () => {
    const root = join(temp.path, 'failing');
    mkdirSync(root);
    // The first chunk goes to the helper; its third file is already there, so the exclusive create fails.
    writeFileSync(join(root, 'x2'), 'already here\n');
    const pass = new WritePass(root);
    const chunk = (from: number): NewFile[] => Array.from({ length: 100 }, (_, i) => ({ path: `x${from + i}`, mode: '100644', bytes: Buffer.from(`${from + i}\n`) }));
    pass.write(chunk(0));
    expect(pass.helperChunks).toBe(1);
    await expect(pass.finish()).rejects.toMatchObject({ path: 'x2' });
    expect(pass.stopped).toBe(true);
    pass.write(chunk(100));
    await pass.finish().catch(() => undefined);
    // x0, x1 and the file that was there; nothing after the failure.
    expect(readdirSync(root).sort()).toEqual(['x0', 'x1', 'x2']);
    expect(readFileSync(join(root, 'x2'), 'utf8')).toBe('already here\n');
  });

  it('a cancelled fork throws CancelledError and writes nothing more afterwards', async () => {
    const fork = join(temp.path, 'cancelled');
    const controller = new AbortController();
    const error = await materializeSnapshot(store, treeOid, fork, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.filesDone > 0 && p.filesDone < COUNT) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    const written = countFiles(fork);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(COUNT);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(countFiles(fork)).toBe(written);
  });
});
