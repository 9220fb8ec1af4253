/**
 * A data folder Arbor may not write (issue 13): `ls`, `show`, `search` and `tree` read it without migrating it
 * or creating a WAL or -shm file, and every write command answers READ_ONLY with exit status 1. Tests run as
 * root here, which chmod does not stop: the decision is tested through the injected access check, and the real
 * one by running the CLI as an unprivileged user (or as this one when it is not root).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { transcriptReader, createArborService } from '../../../electron/service/arbor-service';
import { importSessions } from '../../../electron/service/import-sessions';
import type { SessionSummary } from '../../../shared/model';
import { runCliCaptured } from './run-cli';
import { buildCliBundle, runArbor } from './spawned-cli';

const NOBODY = 65_534;
let root: string;
let first: string;
let second: string;
let cli: ReturnType<typeof buildCliBundle>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-read-only-'));
  chmodSync(root, 0o755);
  first = join(root, 'first');
  second = join(root, 'second');
  await writeSyntheticCorpus(first, { totalBytes: 40_000, nodesPerSession: 15, seed: 21 });
  await writeSyntheticCorpus(second, { totalBytes: 40_000, nodesPerSession: 15, seed: 22 });
  cli = buildCliBundle();
  // Readable by the unprivileged user the real check runs as.
  chmodSync(join(cli.bundle, '..'), 0o755);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  cli.remove();
});

const home = (): string => join(root, 'home');

function arbor(dataDir: string, args: string[], writable = true) {
  return runCliCaptured(['--data-dir', dataDir, ...args], { cwd: root, homeDir: home() }, {
    createService: (options) => createArborService({ ...options, canWrite: async () => writable }),
  });
}

/** A store cleanly closed: one file, no WAL. */
async function closedStore(name: string): Promise<string> {
  const dataDir = join(root, name);
  const imported = await arbor(dataDir, ['import', first, '--json']);
  expect(imported.code, imported.stderr).toBe(0);
  return dataDir;
}

/**
 * A store whose writer died: the second corpus only in the WAL beside it (bulk mode never checkpoints),
 * copied with its -wal and -shm while the writer still had it open.
 */
async function crashedStore(name: string): Promise<string> {
  const source = await closedStore(`${name}-source`);
  const store = openSessionStore(join(source, 'arbor.sqlite'));
  const dataDir = join(root, name);
  mkdirSync(dataDir);
  try {
    await importSessions(store, transcriptReader, [second], { jobId: 'wal' });
    store.setBulkMode(true);
    for (const suffix of ['', '-wal', '-shm']) copyFileSync(join(source, `arbor.sqlite${suffix}`), join(dataDir, `arbor.sqlite${suffix}`));
  } finally {
    store.close();
  }
  expect(statSync(join(dataDir, 'arbor.sqlite-wal')).size).toBeGreaterThan(0);
  return dataDir;
}

async function idsImportedFrom(paths: string[]): Promise<string[]> {
  const dataDir = mkdtempSync(join(root, 'expected-'));
  expect((await arbor(dataDir, ['import', ...paths])).code).toBe(0);
  return listedIds((await arbor(dataDir, ['ls', '--json'])).stdout);
}

function listedIds(stdout: string): string[] {
  return (JSON.parse(stdout) as { sessions: SessionSummary[] }).sessions.map((session) => session.id).sort();
}

describe('a read-only data folder (the access check injected)', () => {
  for (const [shape, make] of [['cleanly closed', closedStore], ['with a WAL left by a writer that died', crashedStore]] as const) {
    it(`${shape}: ls, show, search and tree read it and create no file`, async () => {
      const dataDir = await make(`reads-${shape.split(' ')[0]}`);
      // The WAL's commits are read too: the crashed store lists the second corpus's sessions.
      const expected = await idsImportedFrom(shape === 'cleanly closed' ? [first] : [first, second]);
      const before = readdirSync(dataDir).sort();

      const ls = await arbor(dataDir, ['ls', '--json'], false);
      expect(ls.code, ls.stderr).toBe(0);
      const ids = listedIds(ls.stdout);
      expect(ids).toEqual(expected);
      const id = ids[0] as string;
      for (const args of [['show', id, '--json'], ['tree', id], ['search', 'the']]) {
        const run = await arbor(dataDir, args, false);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expect(run.stdout.length).toBeGreaterThan(0);
      }
      expect(readdirSync(dataDir).sort()).toEqual(before);
    });
  }

  it('answers READ_ONLY with exit status 1 to every write command', async () => {
    const dataDir = await closedStore('writes');
    const workspace = join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    for (const args of [['import', second], ['snapshot', workspace], ['demo', join(root, 'demo-ro')]]) {
      const run = await arbor(dataDir, args, false);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(/read-only.*\[READ_ONLY\]\n$/);
    }
    expect(existsSync(join(root, 'demo-ro'))).toBe(false);
  });
});

describe('a read-only data folder in a host that stays up (the app, arbor serve)', () => {
  it('opens for reading, with a live tail that watches nothing and no hook socket, instead of failing to start', async () => {
    const dataDir = await closedStore('host');
    const before = readdirSync(dataDir).sort();
    const service = await createArborService({ dataDir, host: 'web', version: 'test', homeDir: home(), env: {}, canWrite: async () => false });
    try {
      const tail = service.tail();
      await tail.ready;
      await tail.stop();
      expect((await service.listenForHooks()).path).toBeNull();
      expect((await service.api['sessions.list']({})).total).toBeGreaterThan(0);
      await expect(service.api['import.run']({ paths: [second] })).rejects.toMatchObject({ code: 'READ_ONLY' });
    } finally {
      await service.close();
    }
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });
});

describe('a read-only data folder (the real access check)', () => {
  const asRoot = process.getuid?.() === 0;
  /** As an unprivileged user when root (chmod does not stop root), else as this user. */
  const asReader = asRoot ? { uid: NOBODY, gid: NOBODY } : {};

  for (const [shape, make] of [['cleanly closed', closedStore], ['with a WAL left by a writer that died', crashedStore]] as const) {
    it(`${shape}: opens read-only for ls and refuses import`, async () => {
      const dataDir = await make(`real-${shape.split(' ')[0]}`);
      const expected = listedIds((await arbor(dataDir, ['ls', '--json'], false)).stdout);
      for (const entry of readdirSync(dataDir)) chmodSync(join(dataDir, entry), 0o444);
      chmodSync(dataDir, 0o555);
      try {
        const env = { HOME: root };
        const ls = await runArbor(cli.bundle, ['--data-dir', dataDir, 'ls', '--json'], env, asReader);
        expect(ls.code, ls.stderr).toBe(0);
        expect(listedIds(ls.stdout)).toEqual(expected);
        const imported = await runArbor(cli.bundle, ['--data-dir', dataDir, 'import', second], env, asReader);
        expect(imported.code).toBe(1);
        expect(imported.stderr).toMatch(/read-only.*\[READ_ONLY\]/);
      } finally {
        chmodSync(dataDir, 0o755);
      }
    });
  }
});
