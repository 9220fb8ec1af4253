/**
 * Issue 10, cases 1 and 2: the workspace changing under a running operation. A fault-injection hook in the
 * runner (`onWritePoint`) changes the workspace at exactly one point of the write phase (before and after each
 * staging, rename and deletion, before a folder is made, before the batch's journal commit), for every point,
 * with both ways of confining writes (descriptors through /proc, and the lstat-chain fallback forced on).
 */
import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArborError } from '../../../shared/errors';
import type { OperationOutcome } from '../../../shared/operations';
import type { WritePoint } from '../../../electron/operations/operation-runner';
import type { OperationPlan } from '../../../electron/operations/operation-types';
import { confinement, type Confinement } from '../../../electron/operations/workspace-folders';
import { capture, listTree, openEngine, planBetween, tempDir, writeEntry, type Engine, type Entry } from './operation-fixture';

const file = (text: string): Entry => ({ kind: 'file', bytes: Buffer.from(text) });

/** The workspace now: one batch of seven writes, most of them in `src`, the folder the tests swap. */
const CURRENT: Record<string, Entry> = {
  'top.txt': file('top now\n'),
  'src/a.txt': file('a now\n'),
  'src/b.txt': file('b, deleted by the rewind\n'),
  'src/deep/c.txt': file('c now\n'),
  'src/keep.txt': file('never planned\n'),
  'src/gone/only.txt': file('deleted, and its folder with it\n'),
};
/** The state the rewind goes back to. */
const TARGET: Record<string, Entry> = {
  'top.txt': file('top then\n'),
  'src/a.txt': file('a then\n'),
  'src/deep/c.txt': file('c then\n'),
  'src/keep.txt': file('never planned\n'),
  'src/new.txt': file('created by the rewind\n'),
  'src/made/d.txt': file('created in a folder the rewind makes\n'),
  'src/slot': file('a file where an empty folder stands now\n'),
};
/** Empty folders in the workspace now: `src/slot` (with `src/slot/inner`) gives way to a file. */
const EMPTY_FOLDERS = ['src/slot/inner'];
/** A folder outside the workspace with the names a redirected write would hit. */
const OUTSIDE: Record<string, Entry> = {
  'a.txt': file('outside a\n'),
  'b.txt': file('outside b\n'),
  'new.txt': file('outside new\n'),
  'deep/c.txt': file('outside c\n'),
  'gone/only.txt': file('outside only\n'),
};
const PLANNED = ['src/a.txt', 'src/b.txt', 'src/deep/c.txt', 'src/gone/only.txt', 'src/made/d.txt', 'src/new.txt', 'src/slot', 'top.txt'];
const MODES: Confinement[] = confinement() === 'descriptors' ? ['descriptors', 'identity-checks'] : ['identity-checks'];

function writeAll(root: string, entries: Record<string, Entry>): void {
  mkdirSync(root, { recursive: true });
  for (const [path, entry] of Object.entries(entries)) writeEntry(root, path, entry);
}

describe('the workspace changing during the write phase', () => {
  let temp: ReturnType<typeof tempDir>;
  let engines: Map<Confinement, Engine>;
  let hook: ((point: WritePoint) => void) | undefined;
  let points: WritePoint[];
  let runs = 0;

  /** A fresh workspace (CURRENT), outside folder and the plan back to TARGET. */
  async function prepare(engine: Engine): Promise<{ workspace: string; outside: string; held: string; plan: OperationPlan }> {
    const base = join(temp.path, `run-${runs++}`);
    const workspace = join(base, 'workspace');
    const outside = join(base, 'outside');
    const held = join(base, 'held');
    writeAll(workspace, CURRENT);
    for (const folder of EMPTY_FOLDERS) mkdirSync(join(workspace, folder), { recursive: true });
    writeAll(outside, OUTSIDE);
    writeAll(join(base, 'target'), TARGET);
    mkdirSync(held);
    const changes = planBetween(engine.objects, await capture(engine.objects, workspace), await capture(engine.objects, join(base, 'target')));
    expect(changes.map((c) => c.path).sort()).toEqual(PLANNED);
    return { workspace, outside, held, plan: { kind: 'rewind', workspace, nodeId: 'node-1', changes, sideEffects: [] } };
  }

  const apply = (engine: Engine, plan: OperationPlan): Promise<OperationOutcome | ArborError> =>
    engine.runner.apply(plan).catch((error: unknown) => {
      if (error instanceof ArborError) return error;
      throw error;
    });

  beforeAll(async () => {
    temp = tempDir('operations-write-faults');
    engines = new Map(MODES.map((mode) => [mode, openEngine(join(temp.path, `data-${mode}`), { durable: false, confinement: mode, onWritePoint: (point) => hook?.(point) })]));
    // Every point of the write phase, in the order they come (the renames run four at once, so their order
    // is the order they finish; each test finds its point by phase and path, not by position).
    const engine = engines.get(MODES[0]!)!;
    const { plan } = await prepare(engine);
    points = [];
    hook = (point) => points.push(point);
    expect((await engine.runner.apply(plan)).status).toBe('applied');
    hook = undefined;
  });
  afterAll(() => {
    for (const engine of engines.values()) engine.close();
    temp.remove();
  });

  it('the hook fires at every point of the write phase', () => {
    const phases = (path: string): string[] => points.filter((p) => p.path === path).map((p) => p.phase).sort();
    expect(phases('src/b.txt')).toEqual(['after-delete', 'before-delete']);
    expect(phases('src/a.txt')).toEqual(['after-rename', 'after-stage', 'before-rename', 'before-stage']);
    expect(phases('src/made')).toEqual(['before-folder']);
    expect(phases('src/slot/inner')).toEqual(['before-folder-removal']);
    expect(phases('src/slot')).toEqual(['after-rename', 'after-stage', 'before-folder-removal', 'before-rename', 'before-stage']);
    expect(phases('')).toEqual(['before-commit']);
    expect(points).toHaveLength(2 * 2 + 6 * 4 + 1 + 2 + 1);
  });

  const faults = {
    /** The agent swaps `src` for a symlink to a folder outside the workspace (the real one kept aside). */
    'swapped for a symlink': (workspace: string, outside: string, held: string) => {
      renameSync(join(workspace, 'src'), join(held, 'src'));
      symlinkSync(outside, join(workspace, 'src'));
    },
    /** The agent moves `src` out of the workspace. */
    'moved away': (workspace: string, _outside: string, held: string) => renameSync(join(workspace, 'src'), join(held, 'src')),
    /** The agent moves `src` away and makes a new, empty `src` (another folder under the same name). */
    'replaced by another folder': (workspace: string, _outside: string, held: string) => {
      renameSync(join(workspace, 'src'), join(held, 'src'));
      mkdirSync(join(workspace, 'src'));
    },
    /** The workspace folder itself swapped for a symlink to the outside folder. */
    'swapped for a symlink (the workspace root)': (workspace: string, outside: string, held: string) => {
      renameSync(workspace, join(held, 'workspace'));
      symlinkSync(outside, workspace);
    },
  };
  /** Where each fault's folder is kept aside, and the path the outcome names. */
  const moved = (fault: string): { from: string; aside: string; changed: string } =>
    fault.includes('root') ? { from: '', aside: 'workspace', changed: '.' } : { from: 'src', aside: 'src', changed: 'src' };

  for (const mode of MODES) {
    for (const [fault, inject] of Object.entries(faults)) {
      it(`a folder ${fault} at any point of the write phase redirected no write outside the workspace; the rewind is rolled back (${mode})`, async () => {
        const engine = engines.get(mode)!;
        let index = 0;
        for (const target of points) {
          const where = `${fault} at ${target.phase} ${target.path} (${mode})`;
          const { workspace, outside, held, plan } = await prepare(engine);
          const before = listTree(workspace);
          const outsideBefore = listTree(outside);
          let fired = false;
          hook = (point) => {
            if (fired || point.phase !== target.phase || point.path !== target.path) return;
            fired = true;
            inject(workspace, outside, held);
          };
          const outcome = await apply(engine, plan);
          hook = undefined;
          expect(fired, where).toBe(true);
          expect(listTree(outside), where).toEqual(outsideBefore);
          expect(engine.runner.list({ workspace })[0]?.status, where).toBe('rolled-back');
          // Put the agent's change back: the workspace is as it was before the rewind, byte for byte.
          const { from, aside, changed } = moved(fault);
          if (fault.startsWith('swapped')) unlinkSync(join(workspace, from));
          if (fault.startsWith('replaced')) {
            // Nothing went into the other folder either: it is not the one the check saw.
            expect(readdirSync(join(workspace, from)), where).toEqual([]);
            rmdirSync(join(workspace, from));
          }
          renameSync(join(held, aside), join(workspace, from));
          if (mode === 'descriptors' || !(outcome instanceof ArborError)) {
            expect(outcome, where).toEqual({ status: 'workspace-changed', changed: [changed] });
            expect(listTree(workspace), where).toEqual(before);
          } else {
            // The fallback cannot reach a folder that is no longer at its path: what it wrote there before the
            // swap is reported (never written through the symlink), and everything else is put back.
            expect(outcome.code, where).toBe('IO');
            const problems = (outcome.data as { problems: { path: string }[] }).problems.map((p) => p.path);
            expect(problems.length, where).toBeGreaterThan(0);
            expect(problems.every((path) => path.startsWith(from === '' ? '' : `${from}/`)), where).toBe(true);
            const after = listTree(workspace);
            for (const [path, value] of before) if (!problems.includes(path) && !problems.some((p) => `${p}/`.startsWith(path))) expect(after.get(path), `${where}: ${path}`).toBe(value);
          }
          index++;
        }
        expect(index).toBe(points.length);
      });
    }

    it(`a folder swapped for a symlink after earlier batches wrote into it: a many-file rewind is rolled back through the held folders (${mode})`, async () => {
      const engine = engines.get(mode)!;
      const base = join(temp.path, `run-${runs++}`);
      const workspace = join(base, 'workspace');
      const outside = join(base, 'outside');
      const many = (version: string): Record<string, Entry> => Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.txt`, file(`${version} ${i}\n`)]));
      writeAll(workspace, many('now'));
      writeAll(join(base, 'target'), many('then'));
      writeAll(outside, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, file(`outside ${i}\n`)])));
      mkdirSync(join(base, 'held'));
      const changes = planBetween(engine.objects, await capture(engine.objects, workspace), await capture(engine.objects, join(base, 'target')));
      expect(changes).toHaveLength(60);
      const before = listTree(workspace);
      const outsideBefore = listTree(outside);
      let swappedAt: number | undefined;
      hook = (point) => {
        // The third batch of 16: two batches are written and journaled done.
        if (swappedAt !== undefined || point.phase !== 'before-stage' || point.seq < 32) return;
        swappedAt = point.seq;
        renameSync(join(workspace, 'src'), join(base, 'held', 'src'));
        symlinkSync(outside, join(workspace, 'src'));
      };
      const outcome = await apply(engine, { kind: 'rewind', workspace, nodeId: 'node-1', changes, sideEffects: [] });
      hook = undefined;
      expect(swappedAt).toBe(32);
      expect(listTree(outside)).toEqual(outsideBefore);
      unlinkSync(join(workspace, 'src'));
      renameSync(join(base, 'held', 'src'), join(workspace, 'src'));
      if (mode === 'descriptors') {
        expect(outcome).toEqual({ status: 'workspace-changed', changed: ['src'] });
        expect(listTree(workspace)).toEqual(before);
      } else {
        // The fallback cannot reach the real folder any more: the 32 files written into it are reported.
        expect(outcome).toMatchObject({ code: 'IO', data: { path: 'src' } });
        expect((outcome as ArborError).data).toMatchObject({ problems: expect.arrayContaining([expect.objectContaining({ path: 'src/f00.txt' })]) });
        expect(((outcome as ArborError).data as { problems: unknown[] }).problems).toHaveLength(32);
      }
    });

    it(`an edit made during the write phase, right before its file is replaced or deleted, is not overwritten; the rewind is rolled back (${mode})`, async () => {
      const engine = engines.get(mode)!;
      const targets = points.filter((p) => p.phase === 'before-rename' || p.phase === 'before-delete');
      expect(targets).toHaveLength(PLANNED.length);
      for (const target of targets) {
        for (const edit of ['edited', 'deleted'] as const) {
          const { workspace, plan } = await prepare(engine);
          const full = join(workspace, target.path);
          const created = CURRENT[target.path] === undefined;
          // A path the rewind creates: the user creates it first (there is nothing to delete).
          const action = created ? 'created' : edit;
          if (created && edit === 'deleted') continue;
          const where = `${action} ${target.path} at ${target.phase} (${mode})`;
          hook = (point) => {
            if (point.phase !== target.phase || point.path !== target.path) return;
            if (action === 'deleted') rmSync(full);
            else writeFileSync(full, 'the user typed this\n');
          };
          const before = listTree(workspace);
          const outcome = await apply(engine, plan);
          hook = undefined;
          expect(outcome, where).toEqual({ status: 'workspace-changed', changed: [target.path] });
          expect(engine.runner.list({ workspace })[0]?.status, where).toBe('rolled-back');
          const expected = new Map(before);
          if (action === 'deleted') expected.delete(target.path);
          else expected.set(target.path, `file:644:${Buffer.from('the user typed this\n').toString('base64')}`);
          // The folder the rewind made for it holds the user's file now: it stays.
          if (target.path === 'src/made/d.txt') expected.set('src/made/', 'dir:755');
          // The empty folders the rewind removed for it cannot come back where the user's file is.
          if (target.path === 'src/slot') for (const folder of ['src/slot/', 'src/slot/inner/']) expected.delete(folder);
          expect(listTree(workspace), where).toEqual(expected);
        }
      }
    });

    it(`a touch during the write phase does not stop the rewind; an edit that keeps size and mtime does (${mode})`, async () => {
      const engine = engines.get(mode)!;
      const old = new Date('2024-01-01T00:00:00Z');
      // Old timestamps, so the write phase trusts an unchanged stat and hashes only what changed.
      const { workspace, plan } = await prepare(engine);
      for (const path of Object.keys(CURRENT)) utimesSync(join(workspace, path), old, old);
      const replanned = { ...plan };
      hook = (point) => {
        if (point.phase === 'before-rename' && point.path === 'src/a.txt') utimesSync(join(workspace, 'src/a.txt'), new Date(), new Date());
      };
      const touched = await apply(engine, replanned);
      hook = undefined;
      expect(touched).toMatchObject({ status: 'applied' });

      const second = await prepare(engine);
      for (const path of Object.keys(CURRENT)) utimesSync(join(second.workspace, path), old, old);
      hook = (point) => {
        if (point.phase !== 'before-rename' || point.path !== 'src/a.txt') return;
        const full = join(second.workspace, 'src/a.txt');
        const size = statSync(full).size;
        writeFileSync(full, 'A NOW\n');
        expect(statSync(full).size).toBe(size);
        utimesSync(full, old, old);
      };
      const sneaky = await apply(engine, second.plan);
      hook = undefined;
      expect(sneaky).toEqual({ status: 'workspace-changed', changed: ['src/a.txt'] });
      expect(listTree(second.workspace).get('src/a.txt')).toBe(`file:644:${Buffer.from('A NOW\n').toString('base64')}`);
    });
  }
});
