/**
 * An archive made while the store is being written is a consistent store. Beside an import (its worker thread
 * writing through its own connection), the store file is backed up while the import writes — not after it —
 * and what it holds is a state the import committed: installed elsewhere it passes SQLite's check, every
 * session in it is a part of the finished one, and importing the same transcripts again completes it to the
 * same counts. Beside a deletion that prunes the snapshot repository, every object the archived rows name is in
 * the archived repository (git fsck agrees).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveExported } from '../../../shared/archive';
import type { SessionSummary, SnapshotCaptured } from '../../../shared/model';
import { openSessionStore } from '../../../electron/db/session-store';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { createArborService } from '../../../electron/service/arbor-service';
import { exportArchive } from '../../../electron/service/archive-export';
import { importArchive } from '../../../electron/service/archive-import';
import { createEventHub } from '../../../electron/service/event-hub';
import { createWorkspaceContext, type WorkspaceContext } from '../../../electron/service/workspace-context';
import { missingObjects } from '../../../electron/git/copy-repository';
import { pruneUnreachable } from '../../../electron/git/prune';
import { openCliDemo, type CliDemo } from '../cli/run-cli';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-archive-writers-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const open = (dataDir: string, home: string) => createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {} });

/** Session id → its node ids, read from a data folder's store. */
function nodesBySession(dataDir: string): Map<string, string[]> {
  const store = openSessionStore(join(dataDir, 'arbor.sqlite'), { readOnly: true });
  try {
    const { sessions } = store.listSessions({ limit: 10_000 });
    return new Map(sessions.map((session: SessionSummary) => [session.id, store.getSessionNodes(session.id).map((node) => node.id)]));
  } finally {
    store.close();
  }
}

describe('export-archive beside an import', () => {
  it('backs the store up while the import writes, and the archive is a state the import committed', async () => {
    const projects = join(root, 'projects');
    await writeSyntheticCorpus(projects, { totalBytes: 3 * 1024 * 1024, nodesPerSession: 400, seed: 15 });
    const dataDir = join(root, 'importing');
    const service = await open(dataDir, root);
    let importDone = 0;
    let firstBackupStep = 0;
    let exported: ArchiveExported;
    try {
      const started = new Promise<void>((resolve) => {
        const stop = service.events.on('sessions.changed', () => {
          stop();
          resolve();
        });
      });
      service.events.on('operation.progress', ({ operation, phase }) => {
        if (operation === 'archive-export' && phase === 'database' && firstBackupStep === 0) firstBackupStep = performance.now();
      });
      const importing = service.api['import.run']({ paths: [projects] }).then(() => (importDone = performance.now()));
      // Some sessions are stored and the import goes on: the export starts now.
      await started;
      expect(importDone).toBe(0);
      exported = await service.api['archive.export']({ dir: join(root, 'archive') });
      await importing;
      await service.idle();
    } finally {
      await service.close();
    }
    // The backup did not wait for the import (only the repository's copy takes the writer turn).
    expect(firstBackupStep).toBeGreaterThan(0);
    expect(firstBackupStep).toBeLessThan(importDone);

    const finished = nodesBySession(dataDir);
    const elsewhere = join(root, 'elsewhere');
    await importArchive({ archiveDir: join(root, 'archive'), dataDir: elsewhere });
    const archived = nodesBySession(elsewhere);
    expect(archived.size).toBe(exported.manifest.counts.sessions);
    expect(archived.size).toBeLessThan(finished.size);
    for (const [sessionId, nodes] of archived) expect(finished.get(sessionId)).toEqual(expect.arrayContaining(nodes));

    // The import resumes from the archived state and reaches the same store.
    const resumed = await open(elsewhere, root);
    try {
      await resumed.api['import.run']({ paths: [projects] });
    } finally {
      await resumed.close();
    }
    expect(nodesBySession(elsewhere)).toEqual(finished);
  }, 60_000);
});

describe('export-archive beside a deletion', () => {
  let demo: CliDemo;
  beforeAll(async () => {
    demo = await openCliDemo('arbor-archive-delete-');
  }, 30_000);
  afterAll(() => demo.remove());

  it('archives a repository that holds every object its rows name, however the two interleave', async () => {
    expect((await demo.cli(['snapshot', demo.graph.session.project!])).code).toBe(0);
    const service = await open(demo.dataDir, demo.home);
    let exported: ArchiveExported;
    try {
      const exporting = service.api['archive.export']({ dir: join(root, 'beside-delete') });
      const deleting = service.api['sessions.delete']({ sessionIds: [demo.graph.session.id] });
      [exported] = await Promise.all([exporting, deleting]);
    } finally {
      await service.close();
    }
    expect(exported.manifest.missingObjects).toEqual([]);
    execFileSync('git', ['--git-dir', join(root, 'beside-delete', 'snapshots.git'), 'fsck', '--full', '--strict', '--no-dangling'], { stdio: 'pipe' });
    const installed = await importArchive({ archiveDir: join(root, 'beside-delete'), dataDir: join(root, 'after-delete') });
    expect(installed.manifest.counts.snapshots).toBe(exported.manifest.counts.snapshots);
  }, 30_000);

  it('copies the store again when a deletion pruned between its backup and the repository copy', async () => {
    const dir = join(root, 'between');
    const captured = await demo.cli(['snapshot', demo.graph.session.project!, '--json']);
    expect(captured.code, captured.stderr).toBe(0);
    const tree = (JSON.parse(captured.stdout) as SnapshotCaptured).snapshot.tree;
    const store = openSessionStore(join(demo.dataDir, 'arbor.sqlite'));
    const lifetime = new AbortController();
    const workspace = createWorkspaceContext(store, { dataDir: demo.dataDir, homeDir: demo.home, env: {}, now: () => new Date(), lifetime: lifetime.signal, events: createEventHub() });
    // The deletion gets the writer turn first: rows and refs gone, objects pruned, before the copy begins.
    const deletionFirst: WorkspaceContext = {
      ...workspace,
      writes: {
        ...workspace.writes,
        run: async (task) => {
          const objects = workspace.objects();
          for (const ref of (await objects.listRefs('refs/')).keys()) await objects.deleteRef(ref);
          store.handles.write.exec('DELETE FROM snapshots');
          expect((await pruneUnreachable(objects)).objects).toBeGreaterThan(0);
          return workspace.writes.run(task);
        },
      },
    };
    let exported: ArchiveExported;
    try {
      exported = await exportArchive(deletionFirst, { dir }, { version: 'test', signal: lifetime.signal });
    } finally {
      await workspace.close();
      store.close();
    }
    // Without the second copy the rows would name the pruned trees.
    expect(exported.manifest.counts.snapshots).toBe(0);
    expect(exported.manifest.missingObjects).toEqual([]);
    // What the deletion pruned is not in the archive either (the bulk was copied before it).
    expect(missingObjects(dir, [tree])).toEqual([tree]);
    await importArchive({ archiveDir: dir, dataDir: join(root, 'after-between') });
  }, 30_000);
});
