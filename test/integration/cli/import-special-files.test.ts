/**
 * `arbor import` as a real process, named things that are not transcript files and stopped by real signals
 * (issue 13). A FIFO named on the command line hung the import in open() for good: Ctrl-C could not stop it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import type { ImportReport, SessionGraph, SessionSummary } from '../../../shared/model';
import { buildCliBundle, runArbor, startArbor } from './spawned-cli';

let root: string;
let cli: ReturnType<typeof buildCliBundle>;
let transcripts: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-special-'));
  cli = buildCliBundle();
  transcripts = join(root, 'small');
  await writeSyntheticCorpus(transcripts, { totalBytes: 20_000, nodesPerSession: 12, seed: 5 });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  cli.remove();
});

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

async function listed(dataDir: string): Promise<SessionSummary[]> {
  const run = await runArbor(cli.bundle, ['--data-dir', dataDir, 'ls', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { sessions: SessionSummary[] }).sessions;
}

/** Every listed session is whole: its graph holds as many nodes as the list says, from at least one file. */
async function expectLinked(dataDir: string): Promise<number> {
  let nodes = 0;
  for (const session of await listed(dataDir)) {
    const shown = await runArbor(cli.bundle, ['--data-dir', dataDir, 'show', session.id, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as SessionGraph).nodes.length).toBe(session.nodeCount);
    expect(session.fileCount).toBeGreaterThan(0);
    nodes += session.nodeCount;
  }
  return nodes;
}

describe('arbor import refuses what it cannot read', () => {
  it('refuses a FIFO named on the command line at once, with exit status 1, instead of hanging in open()', async () => {
    const fifo = join(root, 'named.jsonl');
    mkfifo(fifo);
    const started = Date.now();
    const run = await runArbor(cli.bundle, ['--data-dir', join(root, 'data-fifo'), 'import', fifo, '--json']);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code, run.stderr).toBe(1);
    expect((JSON.parse(run.stdout) as ImportReport).problems).toEqual([
      { file: fifo, line: 0, reason: 'not a transcript file: a FIFO (named pipe), not read', notImported: true },
    ]);
    expect(run.stderr).toContain('1 path not imported');
  });

  it('refuses a character device named on the command line', async () => {
    const run = await runArbor(cli.bundle, ['--data-dir', join(root, 'data-device'), 'import', '/dev/zero', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect((JSON.parse(run.stdout) as ImportReport).problems).toEqual([
      { file: '/dev/zero', line: 0, reason: 'not a transcript file: a character device, not read', notImported: true },
    ]);
  });

  it('skips a FIFO and a socket found in a folder without opening them, and imports the transcripts beside them', async () => {
    const folder = join(root, 'mixed');
    mkdirSync(folder);
    execFileSync('cp', ['-r', transcripts, join(folder, 'projects')]);
    mkfifo(join(folder, 'pipe.jsonl'));
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(join(folder, 'socket.jsonl'), done));
    try {
      const run = await runArbor(cli.bundle, ['--data-dir', join(root, 'data-mixed'), 'import', folder, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as ImportReport;
      expect(report.sessions.length).toBeGreaterThan(0);
      expect(report.problems).toEqual([
        { file: join(folder, 'pipe.jsonl'), line: 0, reason: 'not a transcript file: a FIFO (named pipe), not read' },
        { file: join(folder, 'socket.jsonl'), line: 0, reason: 'not a transcript file: a socket, not read' },
      ]);
    } finally {
      server.close();
    }
  });
});

describe('arbor import stops on Ctrl-C and SIGTERM', () => {
  it('exits 130 promptly on SIGTERM mid-import, with the sessions committed so far linked, and the next import completes it', async () => {
    const projects = join(root, 'big');
    const corpus = await writeSyntheticCorpus(projects, { totalBytes: 30_000_000, nodesPerSession: 2000, seed: 9 });
    const dataDir = join(root, 'data-term');
    const importing = startArbor(cli.bundle, ['--data-dir', dataDir, 'import', projects]);
    // The writer turn is taken once the store is open: the import is under way (30 MB: a second or more).
    await expect.poll(() => existsSync(join(dataDir, 'locks', 'store-writer.lock')), { timeout: 30_000, interval: 10 }).toBe(true);
    importing.child.kill('SIGTERM');
    const signalled = Date.now();
    const stopped = await importing.exited;
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('arbor: interrupted');
    expect(existsSync(join(dataDir, 'locks', 'store-writer.lock'))).toBe(false);
    const before = await expectLinked(dataDir);
    expect(before).toBeLessThan(corpus.nodes);
    const rest = await runArbor(cli.bundle, ['--data-dir', dataDir, 'import', projects, '--json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(await expectLinked(dataDir)).toBe(corpus.nodes);
  }, 120_000);

  it('exits 130 on Ctrl-C while waiting for another process to finish importing, leaving its lock alone', async () => {
    const dataDir = join(root, 'data-wait');
    mkdirSync(join(dataDir, 'locks'), { recursive: true });
    // This test process holds the turn, as a running `arbor serve` would.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    const lock = join(dataDir, 'locks', 'store-writer.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, started, name: 'arbor serve' }));
    const waiting = startArbor(cli.bundle, ['--data-dir', dataDir, 'import', transcripts]);
    await expect.poll(() => waiting.stderr(), { timeout: 30_000 }).toContain(`arbor: waiting for the import in arbor serve (process ${process.pid})…`);
    waiting.child.kill('SIGINT');
    const stopped = await waiting.exited;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(existsSync(lock)).toBe(true);
    expect(await listed(dataDir)).toEqual([]);
  }, 60_000);
});
