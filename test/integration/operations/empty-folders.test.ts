/**
 * Issue 10, case 6: undo did not bring back empty folders that existed before the rewind. The folder structure
 * (empty folders and their permission bits included) must come back byte for byte through rewind → undo, and
 * through a rollback and a crash recovery.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOperationJournal } from '../../../electron/db/operation-journal';
import { storeBlobs } from '../../../electron/git/workspace-files';
import type { OperationPlan } from '../../../electron/operations/operation-types';
import { capture, listTree, openEngine, planBetween, tempDir, writeEntry, type Engine, type Entry } from './operation-fixture';

const file = (text: string): Entry => ({ kind: 'file', bytes: Buffer.from(text) });

describe('empty folders through rewind and undo', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: Engine;
  let runs = 0;

  beforeEach(() => {
    temp = tempDir('operations-empty-folders');
    engine = openEngine(join(temp.path, 'data'), { durable: false });
  });
  afterEach(() => {
    engine.close();
    temp.remove();
  });

  /** A workspace with `files` and the empty `folders` (with their bits), and the plan to the state `target`. */
  async function prepare(files: Record<string, Entry>, folders: Record<string, number>, target: Record<string, Entry>): Promise<{ workspace: string; plan: OperationPlan }> {
    const base = join(temp.path, `run-${runs++}`);
    const workspace = join(base, 'workspace');
    const targetDir = join(base, 'target');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(targetDir, { recursive: true });
    for (const [path, entry] of Object.entries(files)) writeEntry(workspace, path, entry);
    for (const [path, entry] of Object.entries(target)) writeEntry(targetDir, path, entry);
    for (const [path, bits] of Object.entries(folders)) {
      mkdirSync(join(workspace, path), { recursive: true });
      chmodSync(join(workspace, path), bits);
    }
    const changes = planBetween(engine.objects, await capture(engine.objects, workspace), await capture(engine.objects, targetDir));
    return { workspace, plan: { kind: 'rewind', workspace, nodeId: 'node-1', changes, sideEffects: [] } };
  }

  async function roundTrip(files: Record<string, Entry>, folders: Record<string, number>, target: Record<string, Entry>): Promise<{ afterRewind: Map<string, string> }> {
    const { workspace, plan } = await prepare(files, folders, target);
    const before = listTree(workspace);
    const applied = await engine.runner.apply(plan);
    if (applied.status !== 'applied') throw new Error(JSON.stringify(applied));
    const afterRewind = listTree(workspace);
    const undone = await engine.runner.undo(applied.operation);
    expect(undone.status).toBe('applied');
    expect(listTree(workspace)).toEqual(before);
    // Redo gives the rewind's result again, folders included.
    const redone = await engine.runner.undo((undone as { operation: string }).operation);
    expect(redone.status).toBe('applied');
    expect(listTree(workspace)).toEqual(afterRewind);
    return { afterRewind };
  }

  it('undo removed an empty folder that was there before the rewind wrote a file into it', async () => {
    const { afterRewind } = await roundTrip({ 'a.txt': file('a\n') }, { empty: 0o700, 'deep/er': 0o755 }, { 'a.txt': file('a\n'), 'empty/f.txt': file('f\n'), 'deep/er/g.txt': file('g\n') });
    expect(afterRewind.get('empty/f.txt')).toBeDefined();
    expect(afterRewind.get('empty/')).toBe('dir:700');
  });

  it('folders named like object properties (constructor, __proto__) keep their bits through the round trip', async () => {
    await roundTrip({ 'a.txt': file('a\n'), '__proto__/x.txt': file('x\n') }, { constructor: 0o700, '__proto__/deep': 0o700 }, { 'a.txt': file('a\n'), 'constructor/f.txt': file('f\n'), 'toString/t.txt': file('t\n') });
  });

  it('a folder the rewind empties goes (as with git) and undo brings it back with its bits', async () => {
    const { afterRewind } = await roundTrip({ 'a.txt': file('a\n'), 'only/child.txt': file('c\n') }, { only: 0o700 }, { 'a.txt': file('a\n') });
    expect(afterRewind.has('only/')).toBe(false);
  });

  it('a rewind to a file where an empty folder stands replaces the folder, and undo brings the folder back', async () => {
    const { afterRewind } = await roundTrip({ 'a.txt': file('a\n') }, { 'x/y': 0o755 }, { 'a.txt': file('a\n'), x: file('x is a file again\n') });
    expect(afterRewind.has('x/')).toBe(false);
  });

  it('a folder that becomes a file while it holds an empty folder besides its files', async () => {
    await roundTrip({ 'x/inner.txt': file('inner\n') }, { 'x/e': 0o755 }, { x: file('x is a file again\n') });
  });

  it('a rollback keeps an empty folder that was there before, and removes the folders it made', async () => {
    const { workspace, plan } = await prepare({ 'a.txt': file('a\n') }, { empty: 0o755, 'x/y': 0o755 }, { 'a.txt': file('a2\n'), 'empty/f.txt': file('f\n'), 'made/g.txt': file('g\n'), x: file('x\n') });
    const before = listTree(workspace);
    const failing = openEngine(join(temp.path, 'data'), {
      durable: false,
      onWritePoint: (point) => {
        if (point.phase === 'before-commit') throw new Error('the disk is full');
      },
    });
    try {
      await expect(failing.runner.apply(plan)).rejects.toMatchObject({ code: 'IO' });
      expect(listTree(workspace)).toEqual(before);
    } finally {
      failing.close();
    }
  });

  it('crash recovery keeps an empty folder that was there before and brings back one the operation replaced', async () => {
    const workspace = join(temp.path, 'crashed');
    mkdirSync(join(workspace, 'empty'), { recursive: true });
    const journal = createOperationJournal(engine.store.handles);
    const [f, x] = await storeBlobs(engine.objects, [Buffer.from('f\n'), Buffer.from('x\n')]);
    // The operation wrote empty/f.txt, and x where the empty folders x/y stood; then the process was killed.
    writeFileSync(join(workspace, 'empty/f.txt'), 'f\n');
    writeFileSync(join(workspace, 'x'), 'x\n');
    journal.begin(
      { id: 'op-crashed', kind: 'rewind', workspace, nodeId: null, undoes: null, sideEffects: [], safetyCommit: null, createdDirs: [], foldersBefore: { empty: 0o755, x: 0o755, 'x/y': 0o755 }, createdAt: '2025-06-01T12:00:00.000Z' },
      [
        { seq: 0, path: 'empty/f.txt', before: null, after: { oid: f!, mode: '100644' } },
        { seq: 1, path: 'x', before: null, after: { oid: x!, mode: '100644' } },
      ],
    );
    journal.markFiles('op-crashed', 0, 1, 'writing');
    expect(await engine.runner.recover()).toEqual({ rolledBack: ['op-crashed'], completed: [], problems: [] });
    expect([...listTree(workspace).keys()]).toEqual(['empty/', 'x/', 'x/y/']);
  });
});
