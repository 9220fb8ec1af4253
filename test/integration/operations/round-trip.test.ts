/**
 * Rewind then undo on 200 random workspaces: the rewind planner (planExactRewind: snapshot A vs a capture of
 * the workspace in state B) and the operation engine together give A byte for byte, undo gives B byte for
 * byte, and files outside the plan (ignored ones included) are never touched, not even rewritten with the
 * same bytes. Workspace B also holds empty folders (issue 10, case 6: undo did not bring them back): undo gives
 * B's whole tree back, empty folders and permission bits included.
 */
import { lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../../shared/random';
import { capture, listTree, listWorkspace, openEngine, planBetween, tempDir, writeEntry, type Engine } from './operation-fixture';
import { addEmptyFolders, GLOBAL_IGNORE, globallyIgnored, mutate, moveState, randomState, writeState } from './random-workspace';
import { planExactRewind } from '../../../electron/snapshots/rewind';
import { captureDirectory } from '../../../electron/git/capture';
import type { GitEnvironment } from '../../../electron/git/ignore-files';
import { storeBlobs } from '../../../electron/git/workspace-files';
import type { OperationRunner } from '../../../electron/operations/operation-types';

const WORKSPACES = 200;

/** inode + mtime of every file the plan does not name: proof they were not rewritten. */
function fingerprints(root: string, skip: ReadonlySet<string>, dir = '', out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) fingerprints(root, skip, path, out);
    else if (!skip.has(path)) {
      const info = lstatSync(join(root, path));
      out.set(path, `${info.ino}:${info.mtimeMs}`);
    }
  }
  return out;
}

describe('operation engine round trip', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: Engine;

  beforeAll(() => {
    temp = tempDir('operations-round-trip');
    // No fsync: only a power loss needs it, and no test can cut the power (the crash test runs durable).
    engine = openEngine(join(temp.path, 'data'), { durable: false });
  });
  afterAll(() => {
    engine.close();
    temp.remove();
  });

  it(`applies and undoes byte for byte on ${WORKSPACES} random workspaces`, async () => {
    const rng = new Random(3);
    let plannedTotal = 0;
    let fileFolderSwaps = 0;
    let symlinkPlans = 0;
    let emptyFoldersInPlay = 0;
    for (let n = 0; n < WORKSPACES; n++) {
      const root = join(temp.path, `w${n}`);
      mkdirSync(root);
      const stateA = randomState(rng);
      writeState(root, stateA);
      const listA = listWorkspace(root);
      const treeA = await capture(engine.objects, root);
      const stateB = mutate(rng, stateA);
      moveState(root, stateA, stateB);
      // Its own sequence, so the workspaces themselves stay those of the seed.
      // Likely places: where the rewind will create a file, and the folders above it.
      const created = [...stateA.keys()].filter((path) => !stateB.has(path));
      const likely = created.flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/')));
      const empty = addEmptyFolders(new Random(1_000 + n), root, likely);
      const listB = listWorkspace(root);
      const treeB = listTree(root);
      const rewind = await planExactRewind(engine.objects, treeA, root);
      expect(rewind.skipped, `workspace ${n}: nothing in scope is skipped`).toEqual([]);
      const { changes } = rewind;
      // The planner and a plain diff of the two captured trees agree on what changes.
      const diffed = planBetween(engine.objects, await capture(engine.objects, root), treeA);
      expect(changes.map((c) => c.path).sort()).toEqual(diffed.map((c) => c.path).sort());
      plannedTotal += changes.length;
      const paths = new Set(changes.map((c) => c.path));
      // A planned path below another planned path: a file turned into a folder (or back) between A and B.
      if (changes.some((c) => c.path.split('/').some((_, i, parts) => i > 0 && paths.has(parts.slice(0, i).join('/'))))) fileFolderSwaps++;
      if (changes.some((c) => c.expected?.mode === '120000' || c.target?.mode === '120000')) symlinkPlans++;
      const planned = new Set(changes.map((c) => c.path));
      // An empty folder the rewind writes into, or replaces with a file.
      if (empty.some((folder) => changes.some((c) => c.target !== null && (c.path === folder || c.path.startsWith(`${folder}/`))))) emptyFoldersInPlay++;
      const untouched = fingerprints(root, planned);
      const applied = await engine.runner.apply({ kind: 'rewind', workspace: root, nodeId: `node-${n}`, changes, sideEffects: [] });
      if (applied.status !== 'applied') throw new Error(`workspace ${n}: ${JSON.stringify(applied)}`);
      expect(listWorkspace(root), `workspace ${n} after apply`).toEqual(listA);
      expect([...applied.written, ...applied.created, ...applied.deleted].sort()).toEqual(changes.map((c) => c.path).sort());
      expect(applied.created.every((path) => changes.find((c) => c.path === path)?.expected === null)).toBe(true);
      expect(applied.deleted.every((path) => changes.find((c) => c.path === path)?.target === null)).toBe(true);
      expect(fingerprints(root, planned)).toEqual(untouched);

      const undone = await engine.runner.undo(applied.operation);
      if (undone.status !== 'applied') throw new Error(`workspace ${n} undo: ${JSON.stringify(undone)}`);
      expect(listWorkspace(root), `workspace ${n} after undo`).toEqual(listB);
      expect(listTree(root), `workspace ${n} after undo, folders included`).toEqual(treeB);
      expect(fingerprints(root, planned)).toEqual(untouched);

      if (n % 25 === 0) {
        // Undo of the undo (redo) brings A back.
        const redone = await engine.runner.undo(undone.operation);
        expect(redone.status).toBe('applied');
        expect(listWorkspace(root)).toEqual(listA);
      }
    }
    // The generator must actually exercise the engine.
    expect(plannedTotal).toBeGreaterThan(WORKSPACES * 2);
    expect(fileFolderSwaps).toBeGreaterThan(10);
    expect(symlinkPlans).toBeGreaterThan(10);
    expect(emptyFoldersInPlay).toBeGreaterThan(10);

    const operations = engine.runner.list({ limit: 10_000 });
    const rewinds = operations.filter((o) => o.kind === 'rewind');
    expect(rewinds).toHaveLength(WORKSPACES);
    expect(rewinds.every((o) => o.status === 'undone')).toBe(true);
    expect(operations.filter((o) => o.kind === 'undo' && o.status === 'applying')).toEqual([]);
  });
});

/**
 * Regression: files ignored only through the global excludes file were captured and so rewound (deleted,
 * rewritten). Here each workspace also holds such files, changed between the two states: the plan never names
 * them, the rewind and its undo leave them exactly as they are.
 */
describe('operation engine round trip with a global excludes file', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: Engine;
  let git: GitEnvironment;
  let runner: OperationRunner;

  beforeAll(() => {
    temp = tempDir('operations-round-trip-global');
    const home = join(temp.path, 'home');
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'ignore'), GLOBAL_IGNORE);
    git = { home, env: {} };
    engine = openEngine(join(temp.path, 'data'), { durable: false, git });
    runner = engine.runner;
  });
  afterAll(() => {
    engine.close();
    temp.remove();
  });

  it(`never plans, writes or deletes a globally ignored file on ${WORKSPACES} random workspaces`, async () => {
    const rng = new Random(4);
    let plannedTotal = 0;
    let wouldHaveTouched = 0;
    for (let n = 0; n < WORKSPACES; n++) {
      const root = join(temp.path, `w${n}`);
      mkdirSync(root);
      const stateA = randomState(rng);
      writeState(root, stateA);
      const ignoredA = globallyIgnored(rng);
      for (const [path, entry] of ignoredA) writeEntry(root, path, entry);
      const treeA = (await captureDirectory(engine.objects, root, { git })).treeOid;
      const stateB = mutate(rng, stateA);
      moveState(root, stateA, stateB);
      for (const path of ignoredA.keys()) rmSync(join(root, path), { force: true });
      for (const [path, entry] of globallyIgnored(rng)) writeEntry(root, path, entry);
      const listB = listWorkspace(root);
      const isGloballyIgnored = (path: string): boolean => path.endsWith('.swp') || path.startsWith('.cache/');

      const rewind = await planExactRewind(engine.objects, treeA, root, { git });
      expect(rewind.skipped, `workspace ${n}`).toEqual([]);
      expect(rewind.changes.filter((change) => isGloballyIgnored(change.path)), `workspace ${n}`).toEqual([]);
      plannedTotal += rewind.changes.length;
      // The same plan without the home would touch them (the check is not vacuous); asked of every fourth workspace.
      if (n % 4 === 0 && (await planExactRewind(engine.objects, treeA, root)).changes.some((change) => isGloballyIgnored(change.path))) wouldHaveTouched++;

      const planned = new Set(rewind.changes.map((c) => c.path));
      const untouched = fingerprints(root, planned);
      const applied = await runner.apply({ kind: 'rewind', workspace: root, nodeId: `node-${n}`, changes: rewind.changes, sideEffects: [] });
      if (applied.status !== 'applied') throw new Error(`workspace ${n}: ${JSON.stringify(applied)}`);
      const after = listWorkspace(root);
      for (const [path, entry] of listB) if (isGloballyIgnored(path)) expect(after.get(path), `workspace ${n}: ${path}`).toBe(entry);
      expect(fingerprints(root, planned)).toEqual(untouched);

      const undone = await runner.undo(applied.operation);
      if (undone.status !== 'applied') throw new Error(`workspace ${n} undo: ${JSON.stringify(undone)}`);
      expect(listWorkspace(root), `workspace ${n} after undo`).toEqual(listB);
      expect(fingerprints(root, planned)).toEqual(untouched);
    }
    expect(plannedTotal).toBeGreaterThan(WORKSPACES * 2);
    expect(wouldHaveTouched).toBeGreaterThan(WORKSPACES / 8);
  });

  it('refuses a plan that writes a globally ignored file, with BAD_REQUEST and the path, writing nothing', async () => {
    const root = join(temp.path, 'refused');
    mkdirSync(root);
    writeEntry(root, 'a.txt', { kind: 'file', bytes: Buffer.from('a\n') });
    const before = listWorkspace(root);
    const [oid] = await storeBlobs(engine.objects, [Buffer.from('planned\n')]);
    const changes = [
      { path: 'b.txt', expected: null, target: { oid: oid!, mode: '100644' as const } },
      { path: 'src/edit.swp', expected: null, target: { oid: oid!, mode: '100644' as const } },
    ];
    await expect(runner.apply({ kind: 'rewind', workspace: root, nodeId: 'n', changes, sideEffects: [] })).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { path: 'src/edit.swp' } });
    expect(listWorkspace(root)).toEqual(before);
  });
});
