/**
 * Several processes on one data folder (issue 13). Two `arbor import` runs on one folder failed with
 * "database is locked" (or "table sessions already exists" when both created the store), and one exited 0
 * with a file reported "could not read: database is locked" and not imported. Here real processes import
 * side by side, 20 times, and every file must be imported exactly once with a single import's node counts.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import type { ImportReport, SessionSummary } from '../../../shared/model';
import { buildCliBundle, runArbor, startArbor, type Exited } from './spawned-cli';

const RUNS = 20;
let root: string;
let cli: ReturnType<typeof buildCliBundle>;

type Counts = Map<string, { nodes: number; files: number }>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-concurrent-'));
  cli = buildCliBundle();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  cli.remove();
});

function report(run: Exited): ImportReport {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ImportReport;
}

/** What the store lists, read in this process (read-only: the store is never written from here). */
async function storedCounts(dataDir: string): Promise<Counts> {
  const store = openSessionStore(join(dataDir, 'arbor.sqlite'), { readOnly: true });
  try {
    const { sessions } = store.listSessions({ limit: 10_000 });
    return new Map(sessions.map((session: SessionSummary) => [session.id, { nodes: session.nodeCount, files: session.fileCount }]));
  } finally {
    store.close();
  }
}

/** What one import alone stores from `folder`: the counts every concurrent run must reach. */
async function singleImport(folder: string): Promise<Counts> {
  const dataDir = mkdtempSync(join(root, 'single-'));
  report(await runArbor(cli.bundle, ['--data-dir', dataDir, 'import', folder, '--json']));
  return storedCounts(dataDir);
}

function filesIn(reports: readonly ImportReport[]): number {
  return reports.reduce((sum, r) => sum + r.sessions.reduce((files, session) => files + session.files, 0), 0);
}

describe('imports from several processes on one data folder', () => {
  it('two concurrent imports each exit 0, and together import every file once (20 runs)', async () => {
    const projects = join(root, 'corpus');
    const corpus = await writeSyntheticCorpus(projects, { totalBytes: 200_000, nodesPerSession: 25, seed: 13 });
    const expected = await singleImport(projects);
    expect(expected.size).toBeGreaterThan(2);
    for (let run = 0; run < RUNS; run++) {
      const dataDir = join(root, `two-${run}`);
      const both = await Promise.all([0, 1].map(() => runArbor(cli.bundle, ['--data-dir', dataDir, 'import', projects, '--json'])));
      const reports = both.map(report);
      expect(reports.flatMap((r) => r.problems)).toEqual([]);
      // The second waited for the first, then found every file unchanged.
      expect(filesIn(reports)).toBe(corpus.files.length);
      expect(await storedCounts(dataDir)).toEqual(expected);
    }
  }, 300_000);

  it('an import beside a running arbor serve exits 0 while serve imports the same new files (20 runs)', async () => {
    const staging = join(root, 'staging');
    const batches: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const batch = join(staging, `batch-${run}`);
      await writeSyntheticCorpus(batch, { totalBytes: 400_000, nodesPerSession: 40, seed: 100 + run });
      batches.push(batch);
    }
    const expected = await singleImport(staging);
    const claude = join(root, 'claude');
    const projects = join(claude, 'projects');
    mkdirSync(projects, { recursive: true });
    const renderer = join(root, 'renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>served by test</title>');
    const dataDir = join(root, 'served');
    const serve = startArbor(cli.bundle, ['--data-dir', dataDir, 'serve', '--port', '0'], {
      CLAUDE_CONFIG_DIR: claude,
      ARBOR_RENDERER_DIR: renderer,
    });
    try {
      await expect.poll(() => serve.stdout(), { timeout: 30_000 }).toContain('Arbor is serving at');
      for (let run = 0; run < RUNS; run++) {
        // Serve's live tail sees the new files appear and imports them while the CLI imports them too.
        const arrived = join(projects, `batch-${run}`);
        renameSync(batches[run] as string, arrived);
        const imported = report(await runArbor(cli.bundle, ['--data-dir', dataDir, 'import', arrived, '--json']));
        expect(imported.problems).toEqual([]);
      }
      await expect
        .poll(async () => storedCounts(dataDir), { timeout: 30_000, interval: 500 })
        .toEqual(expected);
      expect(serve.stderr()).not.toMatch(/locked|busy/i);
    } finally {
      serve.child.kill('SIGINT');
      const stopped = await serve.exited;
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  }, 300_000);
});
