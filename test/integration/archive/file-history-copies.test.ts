/**
 * The import copies a transcript's file-history backups into the snapshot store (issue 15): once per content,
 * reported in the import's progress, nothing again on a re-import, only the new backup after an append, and the
 * file's ref keeps them through a gc. The cleanupPeriodDays notice is said once through the same service.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/db/database';
import { SnapshotStore } from '../../../electron/git/object-store';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { FILE_HISTORY_REF_PREFIX } from '../../../electron/service/file-history-archive';
import { writeArchivedSession, type ArchivedSession } from './archive-fixture';

let root: string;
let config: string;
let session: ArchivedSession;
let service: ArborService | undefined;

const open = async (): Promise<ArborService> =>
  (service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: config } }));

function copies(): { backup_session: string; backup_name: string; blob_oid: string; size: number }[] {
  const db = openDatabase(join(root, 'data', 'arbor.sqlite'), { readOnly: true });
  try {
    return db.read.prepare('SELECT backup_session, backup_name, blob_oid, size FROM file_history_copies ORDER BY backup_name').all() as never;
  } finally {
    db.close();
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-archive-copies-'));
  config = join(root, 'claude');
  session = writeArchivedSession(config, join(root, 'work'), 'a7c41e00-1500-4000-8000-0000000000c0');
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('file-history copies at import', () => {
  it('copies each backup once, says so in the progress, and copies nothing again on a re-import', async () => {
    const api = (await open()).api;
    const progress: (string | null)[] = [];
    const off = service!.events.on('import.progress', (event) => progress.push(event.currentFile));
    await api['import.run']({ paths: [session.transcript] });
    off();
    expect(copies()).toEqual([{ backup_session: session.sessionId, backup_name: '5eed0123abcd4567@v1', blob_oid: expect.stringMatching(/^[0-9a-f]{40}$/), size: 6 }]);
    expect(progress.some((file) => file?.startsWith(session.fileHistory))).toBe(true);
    const objects = SnapshotStore.open({ dataDir: join(root, 'data') });
    try {
      expect(objects.readBlob(copies()[0]!.blob_oid).equals(session.backupBytes)).toBe(true);
      const refs = await objects.listRefs(FILE_HISTORY_REF_PREFIX);
      expect(refs.size).toBe(1);
    } finally {
      objects.close();
    }
    // Read from the start again (the file "shrank"): the rows and the ref stay as they were.
    const packs = (): number => {
      const store = SnapshotStore.open({ dataDir: join(root, 'data') });
      const count = store.packCount;
      store.close();
      return count;
    };
    const before = packs();
    writeFileSync(session.transcript, `${[...session.lines.values()].slice(0, 3).join('\n')}\n`);
    await api['import.run']({ paths: [session.transcript] });
    expect(copies()).toHaveLength(1);
    expect(packs()).toBe(before);
  });

  it('copies only the new backup after an append, and a gc keeps both', async () => {
    const api = (await open()).api;
    await api['import.run']({ paths: [session.transcript] });
    const name = '5eed0123abcd4567@v2';
    writeFileSync(join(session.fileHistory, name), 'final\n');
    const checkpoint = { type: 'file-history-snapshot', messageId: session.editResult, isSnapshotUpdate: true, snapshot: { messageId: session.checkpointPrompt, timestamp: '2026-10-01T10:00:00.000Z', trackedFileBackups: { 'notes.txt': { backupFileName: name, version: 2, backupTime: '2026-10-01T10:00:00.000Z' } } } };
    appendFileSync(session.transcript, `${JSON.stringify(checkpoint)}\n`);
    await api['import.run']({ paths: [session.transcript] });
    expect(copies().map((copy) => [copy.backup_name, copy.size])).toEqual([['5eed0123abcd4567@v1', 6], ['5eed0123abcd4567@v2', 6]]);
    const gc = await api['store.gc']({});
    expect(gc.problems).toEqual([]);
    rmSync(session.fileHistory, { recursive: true });
    await service!.close();
    const reopened = (await open()).api;
    expect(await reopened['nodes.file']({ nodeId: session.checkpointPrompt, path: session.notes })).toMatchObject({ content: 'draft\n' });
  });

  it('copies, once, the backups of transcripts imported before the archive existed', async () => {
    let api = (await open()).api;
    await api['import.run']({ paths: [session.transcript] });
    await service!.close();
    // The store as an earlier version left it: the lines, no copies, no backfill done.
    const db = openDatabase(join(root, 'data', 'arbor.sqlite'));
    db.write.exec("DELETE FROM file_history_copies; DELETE FROM meta WHERE key = 'file_history_backfilled_at'");
    db.close();
    expect(copies()).toEqual([]);
    api = (await open()).api;
    // Nothing of the transcript changed: the import reads no line, and copies its backup all the same.
    await api['import.run']({ paths: [session.transcript] });
    expect(copies().map((copy) => copy.backup_name)).toEqual(['5eed0123abcd4567@v1']);
    rmSync(session.fileHistory, { recursive: true });
    expect(await api['nodes.file']({ nodeId: session.checkpointPrompt, path: session.notes })).toMatchObject({ content: 'draft\n' });
  });

  it('says the cleanupPeriodDays notice until it is dismissed, and nothing once the setting is explicit', async () => {
    let api = (await open()).api;
    const { notice } = await api['archive.notice']({});
    expect(notice).toMatchObject({ kind: 'cleanup-default', days: 30, setting: 'cleanupPeriodDays', settingsFile: join(config, 'settings.json') });
    await api['archive.dismissNotice']({});
    await service!.close();
    api = (await open()).api;
    expect((await api['archive.notice']({})).notice).toBeNull();
  });

  it('says nothing when Claude Code sets cleanupPeriodDays itself', async () => {
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 90 }));
    expect((await (await open()).api['archive.notice']({})).notice).toBeNull();
  });
});
