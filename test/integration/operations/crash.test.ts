/**
 * kill -9 in the middle of an operation: a child process applies a 9-file plan and SIGKILLs itself at one
 * point of one write (before it, after its rename, after its outcome is journaled), for every point of every
 * write. The next start's recovery must leave the workspace exactly as it was, never a mix; once the journal
 * has every write done, it completes the operation instead (all files were written). "Exactly" includes the
 * folder structure: empty folders and permission bits (issue 10, case 6).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperationJournal } from '../../../electron/db/operation-journal';
import { createArborService } from '../../../electron/service/arbor-service';
import type { OperationPlan } from '../../../electron/operations/operation-types';
import { capture, listTree, openEngine, planBetween, tempDir, writeEntry, type Entry } from './operation-fixture';

const REPO = resolve(import.meta.dirname, '../../..');
const CHILD = join(import.meta.dirname, 'crash-child.ts');
const POINTS_PER_WRITE = 3;
const file = (text: string | Buffer): Entry => ({ kind: 'file', bytes: Buffer.from(text) });

const UNCHANGED: Record<string, Entry> = {
  '.gitignore': file('*.log\n'),
  'x.log': file('ignored\n'),
  'keep.txt': file('never planned\n'),
  'dir2/x.txt': file('never planned either\n'),
  link: { kind: 'link', bytes: Buffer.from('keep.txt') },
};
const OLD: Record<string, Entry> = {
  ...UNCHANGED,
  'a.txt': file('line one\nline two\n'),
  'b.bin': file(Buffer.from([0, 1, 2, 3, 255])),
  'c.sh': file('#!/bin/sh\necho c\n'),
  'd.txt': file('becomes a symlink\n'),
  'gone.txt': file('deleted\n'),
  'only/child.txt': file('deleted, and its folder with it\n'),
};
const NEW: Record<string, Entry> = {
  ...UNCHANGED,
  'a.txt': file('line one\r\nline 2\r\n'),
  'b.bin': file(Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe])),
  'c.sh': { kind: 'exec', bytes: Buffer.from('#!/bin/sh\necho c\n') },
  'd.txt': { kind: 'link', bytes: Buffer.from('a.txt') },
  'new/deep/file.txt': file('created in new folders\n'),
  link2: { kind: 'link', bytes: Buffer.from('../outside') },
  slot: file('a file where empty folders stood\n'),
};
/** Empty folders of the old state: one the rewind writes below, and a tree that gives way to a file. */
const OLD_EMPTY_FOLDERS = ['new', 'slot/inner'];

function writeAll(root: string, entries: Record<string, Entry>, emptyFolders: readonly string[] = []): void {
  mkdirSync(root, { recursive: true });
  for (const folder of emptyFolders) mkdirSync(join(root, folder), { recursive: true });
  for (const [path, entry] of Object.entries(entries)) writeEntry(root, path, entry);
}

interface Run {
  readonly dataDir: string;
  readonly workspace: string;
  readonly planFile: string;
}

/** The plan to NEW and a data folder holding its objects, captured once: each run starts from a copy of it. */
interface Template {
  readonly dataDir: string;
  readonly changes: OperationPlan['changes'];
}

async function prepareTemplate(root: string): Promise<Template> {
  const dataDir = join(root, 'template', 'data');
  const workspace = join(root, 'template', 'workspace');
  const target = join(root, 'template', 'target');
  writeAll(workspace, OLD, OLD_EMPTY_FOLDERS);
  writeAll(target, NEW);
  const engine = openEngine(dataDir);
  try {
    const changes = planBetween(engine.objects, await capture(engine.objects, workspace), await capture(engine.objects, target));
    expect(changes).toHaveLength(9);
    return { dataDir, changes };
  } finally {
    engine.close();
  }
}

/**
 * A fresh data folder (a copy of the template's, closed) and workspace (holding OLD) with the plan to NEW written
 * to a file. Copying instead of capturing both states again for each of the 28 runs: the captures and the new
 * database's migrations ran in the test's one thread while up to three children waited on it, ~0.7 s a run
 * on a busy machine (the whole test neared its 60 s timeout under load).
 */
function prepare(template: Template, root: string, name: string): Run {
  const dataDir = join(root, name, 'data');
  const workspace = join(root, name, 'workspace');
  cpSync(template.dataDir, dataDir, { recursive: true });
  writeAll(workspace, OLD, OLD_EMPTY_FOLDERS);
  const plan: OperationPlan = { kind: 'rewind', workspace, nodeId: 'node-1', changes: template.changes, sideEffects: [] };
  const planFile = join(root, name, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  return { dataDir, workspace, planFile };
}

/**
 * The child is bundled once (like the CLI: scripts/build-cli.cjs) and run as plain JavaScript: `node --import
 * tsx` would compile the sources again in each of the 24 children, seconds each on a busy machine.
 * The bundle lives inside the repository so it resolves better-sqlite3 from node_modules.
 */
async function bundleChild(): Promise<{ readonly file: string; remove(): void }> {
  mkdirSync(join(REPO, 'out'), { recursive: true });
  const dir = mkdtempSync(join(REPO, 'out', 'operations-crash-test-'));
  const file = join(dir, 'crash-child.cjs');
  await build({
    absWorkingDir: REPO,
    entryPoints: [CHILD],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let child: Awaited<ReturnType<typeof bundleChild>>;

function runChild(run: Run, crashAt: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done, fail) => {
    const process_ = spawn(process.execPath, [child.file, run.dataDir, run.planFile], {
      cwd: REPO,
      env: { ...process.env, ARBOR_TEST_CRASH_AT: String(crashAt) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    process_.on('error', fail);
    process_.on('exit', (code, signal) => done({ code, signal, stderr }));
  });
}

/** Runs `task` over `items`, `limit` at a time (each child is a whole Node process). */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

describe('an operation killed with SIGKILL', () => {
  let temp: ReturnType<typeof tempDir>;
  let listOld: Map<string, string>;
  let listNew: Map<string, string>;
  let template: Template;

  beforeAll(async () => {
    child = await bundleChild();
    temp = tempDir('operations-crash');
    writeAll(join(temp.path, 'old'), OLD, OLD_EMPTY_FOLDERS);
    writeAll(join(temp.path, 'new'), NEW);
    listOld = listTree(join(temp.path, 'old'));
    listNew = listTree(join(temp.path, 'new'));
    template = await prepareTemplate(temp.path);
  });
  afterAll(() => {
    temp.remove();
    child.remove();
  });

  it('is rolled back (or completed after its last write) by the next start, never left half-done', async () => {
    const writes = 9;
    // Every point of every write: before it, after its rename, after its outcome is journaled.
    const points = Array.from({ length: writes * POINTS_PER_WRITE }, (_, k) => k);
    const throughService = POINTS_PER_WRITE * 4 + 1;
    const outcomes = new Map<number, 'completed' | 'rolled back'>();
    await pool(points, 3, async (crashAt) => {
      const run = prepare(template, temp.path, `crash-${crashAt}`);
      const exit = await runChild(run, crashAt);
      const where = `crash point ${crashAt} (${exit.stderr.trim()})`;
      expect(exit.signal, where).toBe('SIGKILL');
      // Past the first point the kill left a half-done workspace (otherwise this test would prove nothing).
      if (crashAt === 0) expect(listTree(run.workspace)).toEqual(listOld);
      else expect(listTree(run.workspace), where).not.toEqual(listOld);

      // Recovery completes the operation when the journal has every write done, and rolls it back otherwise.
      let operation: string;
      let allDone: boolean;
      const before = openEngine(run.dataDir);
      try {
        operation = before.runner.list()[0]!.operation;
        expect(before.runner.list()[0]!.status).toBe('applying');
        allDone = createOperationJournal(before.store.handles).files(operation).every((file) => file.state === 'done');
      } finally {
        before.close();
      }
      outcomes.set(crashAt, allDone ? 'completed' : 'rolled back');

      if (crashAt === throughService) {
        // The service recovers when it starts, before it answers calls.
        const service = await createArborService({ dataDir: run.dataDir, host: 'cli', version: 'test', homeDir: join(run.dataDir, 'home'), env: {} });
        expect(listTree(run.workspace), where).toEqual(allDone ? listNew : listOld);
        await service.close();
      }
      const engine = openEngine(run.dataDir);
      try {
        const report = await engine.runner.recover();
        if (crashAt === throughService) {
          expect(report).toEqual({ rolledBack: [], completed: [], problems: [] });
        } else if (allDone) {
          expect(report, where).toEqual({ rolledBack: [], completed: [operation], problems: [] });
        } else {
          expect(report, where).toEqual({ rolledBack: [operation], completed: [], problems: [] });
        }
        expect(engine.runner.list()[0]?.status).toBe(allDone ? 'applied' : 'rolled-back');
        expect(listTree(run.workspace), where).toEqual(allDone ? listNew : listOld);
        if (allDone) {
          // A completed operation is an ordinary one: undo brings the old state back.
          expect((await engine.runner.undo(operation)).status).toBe('applied');
          expect(listTree(run.workspace)).toEqual(listOld);
        } else {
          await expect(engine.runner.undo(operation)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
        }
        // Recovery is done once.
        expect(await engine.runner.recover()).toEqual({ rolledBack: [], completed: [], problems: [] });
      } finally {
        engine.close();
      }
    });
    // Both outcomes happened: kills before and after the last outcome was journaled (the final point is one).
    expect(outcomes.get(writes * POINTS_PER_WRITE - 1)).toBe('completed');
    const rolledBack = [...outcomes.values()].filter((outcome) => outcome === 'rolled back').length;
    expect(rolledBack).toBeGreaterThanOrEqual(writes * 2);
  });

  it('without a kill, the child applies the plan (the crash hook changes nothing else)', async () => {
    const run = prepare(template, temp.path, 'no-crash');
    const exit = await runChild(run, 1_000);
    expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
    expect(listTree(run.workspace)).toEqual(listNew);
  });
});
