import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { checkForkTarget, discardForkFolder, writeReconstructedFork } from '../../../../electron/forks/fork-workspace';
import { SnapshotStore } from '../../../../electron/git/object-store';
import type { NodeState, StateContent } from '../../../../electron/service/workspace-state';
import { UNKNOWN_CONTENT } from '../../../../electron/snapshots/reconstruct';

let root: string;
let objects: SnapshotStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-fork-workspace-'));
  objects = SnapshotStore.open({ dataDir: join(root, 'data') });
});
afterEach(() => {
  objects.close();
  rmSync(root, { recursive: true, force: true });
});

/** A reconstructed state over absolute paths, as workspace-state.ts gives it. */
function stateOf(files: Record<string, StateContent>): NodeState {
  return {
    node: {} as NodeState['node'],
    known: 'reconstructed',
    unknownSince: null,
    paths: () => Object.keys(files),
    content: (path) => (path in files ? files[path]! : UNKNOWN_CONTENT),
    // A fork reads content() only.
    fileOf: () => ({ known: 'not-covered' }),
    bytesOf: () => null,
  };
}

it('copies the source’s non-ignored files, applies the node’s files, and reports what it could not set', async () => {
  const source = join(root, 'source');
  mkdirSync(join(source, 'src'), { recursive: true });
  writeFileSync(join(source, '.gitignore'), '*.log\n');
  writeFileSync(join(source, 'debug.log'), 'ignored');
  writeFileSync(join(source, 'src/a.ts'), 'a now');
  writeFileSync(join(source, 'src/later.ts'), 'created later');
  writeFileSync(join(source, 'unknown.txt'), 'as it is now');
  writeFileSync(join(root, 'outside.txt'), 'secret');
  symlinkSync(join(root, 'outside.txt'), join(source, 'link.txt'));
  const state = stateOf({
    [join(source, 'src/a.ts')]: 'a then',
    [join(source, 'src/later.ts')]: null,
    [join(source, 'new/dir/b.ts')]: 'b then',
    [join(source, 'unknown.txt')]: UNKNOWN_CONTENT,
    [join(source, 'link.txt')]: 'was a file',
    [join(source, '.git/config')]: 'never',
    [join(root, 'elsewhere.txt')]: 'outside',
  });
  const target = join(root, 'fork');
  const result = await writeReconstructedFork(objects, source, state, target, {});

  expect(result.sourceCopied).toBe(true);
  expect(readFileSync(join(target, 'src/a.ts'), 'utf8')).toBe('a then');
  expect(existsSync(join(target, 'src/later.ts'))).toBe(false);
  expect(readFileSync(join(target, 'new/dir/b.ts'), 'utf8')).toBe('b then');
  expect(readFileSync(join(target, 'unknown.txt'), 'utf8')).toBe('as it is now');
  expect(existsSync(join(target, 'debug.log'))).toBe(false);
  // The copied symlink was replaced by the file, never written through.
  expect(lstatSync(join(target, 'link.txt')).isSymbolicLink()).toBe(false);
  expect(readFileSync(join(root, 'outside.txt'), 'utf8')).toBe('secret');
  expect(existsSync(join(target, '.git'))).toBe(false);
  expect(result.skipped).toEqual(
    expect.arrayContaining([
      { path: 'unknown.txt', reason: 'unknown-content' },
      { path: '.git/config', reason: 'unsafe-path' },
      { path: join(root, 'elsewhere.txt'), reason: 'outside-workspace' },
    ]),
  );
  expect(result.skipped).toHaveLength(3);
  // The source is as it was.
  expect(readFileSync(join(source, 'src/a.ts'), 'utf8')).toBe('a now');
  expect(readdirSync(source).sort()).toEqual(['.gitignore', 'debug.log', 'link.txt', 'src', 'unknown.txt']);
});

it('holds only the node’s files when the source workspace is gone', async () => {
  const source = join(root, 'gone');
  const target = join(root, 'fork');
  const result = await writeReconstructedFork(objects, source, stateOf({ [join(source, 'a.txt')]: 'a' }), target, {});
  expect(result.sourceCopied).toBe(false);
  expect(readdirSync(target)).toEqual(['a.txt']);
});

it('accepts only a new or empty target, and a failed fork leaves it as it was', async () => {
  expect(await checkForkTarget(join(root, 'new'))).toEqual({ exists: false });
  mkdirSync(join(root, 'empty'));
  expect(await checkForkTarget(join(root, 'empty'))).toEqual({ exists: true });
  writeFileSync(join(root, 'file'), 'x');
  await expect(checkForkTarget(join(root, 'file'))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  writeFileSync(join(root, 'empty', 'half'), 'x');
  await expect(checkForkTarget(join(root, 'empty'))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  await discardForkFolder(join(root, 'empty'), true);
  expect(readdirSync(join(root, 'empty'))).toEqual([]);
  await discardForkFolder(join(root, 'empty'), false);
  expect(existsSync(join(root, 'empty'))).toBe(false);
});
