/**
 * What the archive commands refuse, and that a refusal changes nothing: a non-empty DIR without --force
 * (EXISTS), an archive inside the data folder, a data folder that already holds a store without --replace
 * (EXISTS; --replace moves it aside and deletes nothing), a store another Arbor has open (STORE_BUSY), and an
 * archive whose manifest, checksum or snapshot repository does not match what it says (CORRUPT).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveExported, ArchiveImported, ArchiveManifest } from '../../../shared/archive';
import type { SessionSummary } from '../../../shared/model';
import { latestVersion } from '../../../electron/db/migrations';
import { createArborService } from '../../../electron/service/arbor-service';
import { openCliDemo, runCliCaptured, type CliDemo, type Run } from '../cli/run-cli';

let demo: CliDemo;
let archive: string;
let manifest: ArchiveManifest;
let count = 0;

/** A fresh folder under the test's root. */
const fresh = (name: string): string => join(demo.root, `${name}-${++count}`);
const cliOn = (dataDir: string, args: string[]): Promise<Run> => runCliCaptured(['--data-dir', dataDir, ...args], { cwd: demo.root, homeDir: demo.home });
const sessionsOf = async (dataDir: string): Promise<string[]> =>
  (JSON.parse((await cliOn(dataDir, ['ls', '--json'])).stdout) as { sessions: SessionSummary[] }).sessions.map((s) => s.id);

/** A copy of the good archive, changed by `spoil`. */
function spoiled(spoil: (dir: string) => void): string {
  const dir = fresh('spoiled');
  cpSync(archive, dir, { recursive: true });
  spoil(dir);
  return dir;
}

function expectFailure(run: Run, code: string): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(new RegExp(`\\[${code}\\]\\n$`));
}

beforeAll(async () => {
  demo = await openCliDemo('arbor-archive-refusals-');
  expect((await demo.cli(['snapshot', demo.graph.session.project!])).code).toBe(0);
  archive = join(demo.root, 'archive');
  const run = await demo.cli(['export-archive', archive, '--json']);
  expect(run.code, run.stderr).toBe(0);
  manifest = (JSON.parse(run.stdout) as ArchiveExported).manifest;
}, 60_000);
afterAll(() => demo?.remove());

describe('the archive commands’ help', () => {
  it('is listed by arbor --help, and says what import-archive does not do', async () => {
    const all = await demo.cli(['--help']);
    expect(all.stdout).toMatch(/^  export-archive +Write the whole store/m);
    expect(all.stdout).toMatch(/^  import-archive +Install a store/m);
    const help = await demo.cli(['import-archive', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Merging an archive into an existing store is not');
    expect((await demo.cli(['export-archive'])).code).toBe(2);
  });
});

describe('arbor export-archive refuses', () => {
  it('a folder that holds something, unless --force, which replaces it with the archive', async () => {
    const dir = fresh('occupied');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    expectFailure(await demo.cli(['export-archive', dir]), 'EXISTS');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
    expect(existsSync(`${dir}.partial`)).toBe(false);

    const forced = await demo.cli(['export-archive', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^Wrote the archive /);
    expect(readdirSync(dir).sort()).toEqual(['README.txt', 'arbor.sqlite', 'manifest.json', 'snapshots.git']);
    expect(readdirSync(demo.root).filter((name) => name.startsWith(`occupied-${count}.`))).toEqual([]);
  });

  it('takes an empty folder that exists without --force', async () => {
    const dir = fresh('empty');
    mkdirSync(dir);
    expect((await demo.cli(['export-archive', dir])).code).toBe(0);
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
  });

  it('a folder inside the data folder, or the data folder itself, even with --force', async () => {
    expectFailure(await demo.cli(['export-archive', join(demo.dataDir, 'archive')]), 'BAD_REQUEST');
    expectFailure(await demo.cli(['export-archive', demo.dataDir, '--force']), 'BAD_REQUEST');
    expect(readdirSync(demo.dataDir)).toContain('arbor.sqlite');
  });
});

describe('arbor import-archive refuses', () => {
  it('a data folder that holds a store, unless --replace, which moves that store aside and keeps it whole', async () => {
    const dataDir = fresh('data');
    expect((await cliOn(dataDir, ['import-archive', archive])).code).toBe(0);
    const first = await sessionsOf(dataDir);
    expect(first.length).toBe(manifest.counts.sessions);

    const refused = await cliOn(dataDir, ['import-archive', archive]);
    expectFailure(refused, 'EXISTS');
    expect(refused.stderr).toContain('--replace');
    expect(await sessionsOf(dataDir)).toEqual(first);

    const run = await cliOn(dataDir, ['import-archive', archive, '--replace', '--json']);
    const replaced = JSON.parse(run.stdout) as ArchiveImported;
    expect(replaced.replacedTo).toMatch(/[/\\]replaced-\d{4}-\d{2}-\d{2}T\d{6}Z$/);
    expect(readdirSync(replaced.replacedTo!).sort()).toEqual(['arbor.sqlite', 'snapshots.git']);
    // The store moved aside is a store: it opens as a data folder and lists what it held.
    expect(await sessionsOf(replaced.replacedTo!)).toEqual(first);
    expect(await sessionsOf(dataDir)).toEqual(first);
  });

  it('takes a data folder whose store holds nothing (an `arbor ls` ran there) without --replace, keeping that file aside', async () => {
    const dataDir = fresh('data');
    expect(await sessionsOf(dataDir)).toEqual([]);
    const installed = JSON.parse((await cliOn(dataDir, ['import-archive', archive, '--json'])).stdout) as ArchiveImported;
    expect(installed.replacedTo).not.toBeNull();
    expect((await sessionsOf(dataDir)).length).toBe(manifest.counts.sessions);
  });

  it('a store another Arbor has open (the app, arbor serve, arbor watch), even with --replace', async () => {
    const dataDir = fresh('data');
    const service = await createArborService({ dataDir, host: 'web', version: 'test', homeDir: demo.home, env: {} });
    try {
      expectFailure(await cliOn(dataDir, ['import-archive', archive, '--replace']), 'STORE_BUSY');
    } finally {
      await service.close();
    }
    expect(readdirSync(dataDir).filter((name) => name.startsWith('replaced-') || name.endsWith('.partial'))).toEqual([]);
  });

  it.each([
    ['a manifest that is not JSON', 'CORRUPT', (dir: string) => writeFileSync(join(dir, 'manifest.json'), '{"format": "arbor-archive",')],
    ['a manifest without its checksum', 'CORRUPT', (dir: string) => rewriteManifest(dir, (m) => ({ ...m, database: { file: 'arbor.sqlite' } }))],
    ['a checksum the store file does not have', 'CORRUPT', (dir: string) => rewriteManifest(dir, (m) => ({ ...m, database: { ...m.database, sha256: 'a'.repeat(64) } }))],
    ['a store file changed after it was written', 'CORRUPT', (dir: string) => flipByte(join(dir, 'arbor.sqlite'))],
    ['a schema version its store does not have', 'CORRUPT', (dir: string) => rewriteManifest(dir, (m) => ({ ...m, schemaVersion: m.schemaVersion - 1 }))],
    ['a snapshot repository that lost its packs', 'CORRUPT', (dir: string) => emptyPacks(join(dir, 'snapshots.git'))],
    ['no snapshot repository', 'CORRUPT', (dir: string) => rmSync(join(dir, 'snapshots.git'), { recursive: true })],
    ['a store from a newer Arbor', 'UNSUPPORTED', (dir: string) => fromNewerSchema(dir)],
    ['a newer archive format', 'UNSUPPORTED', (dir: string) => rewriteManifest(dir, (m) => ({ ...m, formatVersion: 99 }))],
    ['no manifest (not an archive)', 'NOT_FOUND', (dir: string) => rmSync(join(dir, 'manifest.json'))],
  ] as const)('%s: %s, installing nothing', async (_what, code, spoil) => {
    const dir = spoiled(spoil);
    const dataDir = fresh('data');
    expectFailure(await cliOn(dataDir, ['import-archive', dir]), code);
    // Checked before the data folder is touched: it is not even created.
    expect(existsSync(dataDir)).toBe(false);
  });
});

/** The archive as a later Arbor would write it: its store at a schema this one does not know, manifest to match. */
function fromNewerSchema(dir: string): void {
  const file = join(dir, 'arbor.sqlite');
  const db = new Database(file);
  db.pragma(`user_version = ${latestVersion() + 1}`);
  db.pragma('journal_mode = DELETE');
  db.close();
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  rewriteManifest(dir, (m) => ({ ...m, schemaVersion: latestVersion() + 1, database: { ...m.database, sha256 } }));
}

function rewriteManifest(dir: string, change: (manifest: ArchiveManifest) => unknown): void {
  const path = join(dir, 'manifest.json');
  writeFileSync(path, JSON.stringify(change(JSON.parse(readFileSync(path, 'utf8')) as ArchiveManifest)));
}

/** One byte of the last page changed: the file's checksum changes, its size does not. */
function flipByte(path: string): void {
  const bytes = readFileSync(path);
  const at = bytes.length - 100;
  bytes[at] = bytes[at]! ^ 0xff;
  writeFileSync(path, bytes);
}

function emptyPacks(gitdir: string): void {
  const packs = join(gitdir, 'objects', 'pack');
  const names = readdirSync(packs);
  expect(names.some((name) => name.endsWith('.pack'))).toBe(true);
  for (const name of names) rmSync(join(packs, name));
}
