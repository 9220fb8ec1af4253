/**
 * Moving a whole store (issue 15): `arbor export-archive DIR` on one machine, `arbor import-archive DIR` on
 * another where neither the transcripts nor the workspace exist. The demo session with an exact snapshot and
 * a fork of it is archived; the archive's repository passes `git fsck --full --strict`; installed into a
 * fresh data folder under another home, the sessions, a search, every node's detail, a snapshot's files and
 * content, and a fork of that snapshot (its materialized folder) equal the original's.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveExported, ArchiveImported } from '../../../shared/archive';
import type { NodeFiles, SearchHit, SessionGraph, SessionSummary, SnapshotCaptured } from '../../../shared/model';
import type { ForkCreated } from '../../../shared/operations';
import { createArborService } from '../../../electron/service/arbor-service';
import { openCliDemo, runCliCaptured, type CliDemo, type Run } from '../cli/run-cli';

let demo: CliDemo;
let snapshot: SnapshotCaptured;
let exported: ArchiveExported;
let archive: string;
/** The other machine: its own home and data folder. */
let elsewhere: { home: string; dataDir: string; cli(args: string[]): Promise<Run> };
let installed: ArchiveImported;
const before: { sessions?: SessionSummary[]; graphs?: SessionGraph[]; hits?: SearchHit[]; files?: NodeFiles; details?: unknown[]; fork?: ForkCreated } = {};

const json = <T>(run: Run): T => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
};

/** Every file under `dir` (no .git), relative path → sha256 of its bytes. */
function folderDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        if (name !== '.git') walk(path);
      } else {
        out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(dir);
  return out;
}

/** nodes.get for every node of the sessions, read through the real service on `dataDir`. */
async function allDetails(dataDir: string, home: string, graphs: readonly SessionGraph[]): Promise<unknown[]> {
  const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {} });
  try {
    const ids = graphs.flatMap((graph) => graph.nodes.map((node) => node.id));
    return (await service.api['nodes.details']({ nodeIds: ids })).details;
  } finally {
    await service.close();
  }
}

async function readStore(cli: (args: string[]) => Promise<Run>): Promise<{ sessions: SessionSummary[]; graphs: SessionGraph[]; hits: SearchHit[] }> {
  const sessions = json<{ sessions: SessionSummary[] }>(await cli(['ls', '--json'])).sessions;
  const graphs = await Promise.all(sessions.map(async (session) => json<SessionGraph>(await cli(['show', session.id, '--json']))));
  const hits = json<{ hits: SearchHit[]; indexing: boolean }>(await cli(['search', 'format', '--json']));
  expect(hits.indexing).toBe(false);
  return { sessions, graphs, hits: hits.hits };
}

beforeAll(async () => {
  demo = await openCliDemo('arbor-archive-move-');
  const workspace = demo.graph.session.project!;
  snapshot = json<SnapshotCaptured>(await demo.cli(['snapshot', workspace, '--json']));
  before.fork = json<ForkCreated>(await demo.cli(['fork', snapshot.node.id, '--to', join(demo.root, 'fork-before'), '--json']));
  Object.assign(before, await readStore(demo.cli));
  before.files = json<NodeFiles>(await demo.cli(['files', snapshot.node.id, '--json']));
  before.details = await allDetails(demo.dataDir, demo.home, before.graphs!);

  archive = join(demo.root, 'moving', 'arbor-archive');
  exported = json<ArchiveExported>(await demo.cli(['export-archive', archive, '--json']));

  // The other machine has none of the transcripts or folders the sessions were recorded in.
  renameSync(join(demo.root, 'demo'), join(demo.root, 'demo-gone'));
  const home = join(demo.root, 'elsewhere', 'home');
  mkdirSync(home, { recursive: true });
  const dataDir = join(demo.root, 'elsewhere', 'data');
  elsewhere = { home, dataDir, cli: (args) => runCliCaptured(['--data-dir', dataDir, ...args], { cwd: join(demo.root, 'elsewhere'), homeDir: home }) };
  installed = json<ArchiveImported>(await elsewhere.cli(['import-archive', archive, '--json']));
}, 60_000);
afterAll(() => demo?.remove());

describe('arbor export-archive', () => {
  it('writes the store, the snapshot repository, a manifest and a README, and nothing half-written', () => {
    expect(readdirSync(archive).sort()).toEqual(['README.txt', 'arbor.sqlite', 'manifest.json', 'snapshots.git']);
    expect(existsSync(`${archive}.partial`)).toBe(false);
    const manifest = JSON.parse(readFileSync(join(archive, 'manifest.json'), 'utf8')) as ArchiveExported['manifest'];
    expect(manifest).toEqual(exported.manifest);
    expect(manifest.database.sha256).toBe(createHash('sha256').update(readFileSync(join(archive, 'arbor.sqlite'))).digest('hex'));
    expect(manifest.sizes.database).toBe(statSync(join(archive, 'arbor.sqlite')).size);
    expect(manifest.counts).toMatchObject({ sessions: before.sessions!.length, snapshots: 2, forks: 1 });
    expect(manifest.counts.nodes).toBe(before.sessions!.reduce((n, session) => n + session.nodeCount, 0));
    expect(manifest.counts.refs).toBeGreaterThanOrEqual(2);
    expect(manifest.missingObjects).toEqual([]);
    expect(readFileSync(join(archive, 'README.txt'), 'utf8')).toMatch(/git repository/);
  });

  it('its snapshot folder is a git repository git itself accepts: fsck --full --strict, and the snapshot tree lists', () => {
    const git = (...args: string[]): string => execFileSync('git', ['--git-dir', join(archive, 'snapshots.git'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(() => git('fsck', '--full', '--strict', '--no-dangling')).not.toThrow();
    const listed = git('ls-tree', '-r', '--name-only', snapshot.snapshot.tree).trim().split('\n');
    expect(listed).toContain('src/format.ts');
  });
});

describe('arbor import-archive into a fresh data folder elsewhere', () => {
  it('installs the archive as it was written (same schema, nothing replaced)', () => {
    expect(installed).toMatchObject({ migrated: false, replacedTo: null, schemaVersion: exported.manifest.schemaVersion });
    expect(readdirSync(elsewhere.dataDir)).not.toContain('archive-import.partial');
  });

  it('lists, shows and searches the same sessions, though their transcripts are not on this machine', async () => {
    const after = await readStore(elsewhere.cli);
    // The one difference: here no transcript is on disk, and the list says so (the store keeps everything).
    expect(after.sessions.map((session) => session.sourceDeleted)).toEqual(after.sessions.map(() => true));
    expect(before.sessions!.map((session) => session.sourceDeleted ?? false)).toEqual(before.sessions!.map(() => false));
    const unmarked = (session: SessionSummary): SessionSummary => ({ ...session, sourceDeleted: undefined });
    expect(after.sessions.map(unmarked)).toEqual(before.sessions!.map(unmarked));
    expect(after.graphs.map((graph) => ({ ...graph, session: unmarked(graph.session) }))).toEqual(before.graphs!.map((graph) => ({ ...graph, session: unmarked(graph.session) })));
    expect(after.hits.length).toBeGreaterThan(0);
    expect(after.hits).toEqual(before.hits);
  });

  it('answers every node’s detail as the original store did', async () => {
    expect(await allDetails(elsewhere.dataDir, elsewhere.home, before.graphs!)).toEqual(before.details);
  });

  it('has the snapshot: its files and a file’s bytes equal the original’s', async () => {
    expect(json<NodeFiles>(await elsewhere.cli(['files', snapshot.node.id, '--json']))).toEqual(before.files);
    const cat = await elsewhere.cli(['cat', snapshot.node.id, join(snapshot.snapshot.dir, 'src/format.ts')]);
    expect(cat.code, cat.stderr).toBe(0);
    expect(cat.stdoutBytes.equals(readFileSync(join(demo.root, 'demo-gone', relative(join(demo.root, 'demo'), snapshot.snapshot.dir), 'src/format.ts')))).toBe(true);
  });

  it('forks from the snapshot: the materialized folder equals the fork made on the original machine', async () => {
    const fork = json<ForkCreated>(await elsewhere.cli(['fork', snapshot.node.id, '--to', join(demo.root, 'elsewhere', 'fork-after'), '--json']));
    expect(fork.files).toBe(before.fork!.files);
    expect(folderDigest(fork.dir)).toEqual(folderDigest(before.fork!.dir));
    // Its resumable transcript is written from the store, under this machine's home.
    expect(fork.resume).not.toBeNull();
    expect(readdirSync(join(elsewhere.home, '.claude', 'projects')).length).toBe(1);
  });
});
