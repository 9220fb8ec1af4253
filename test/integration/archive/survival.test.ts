/**
 * The archive's promise (issue 15, Done when): a Claude Code session survives the deletion of its transcript AND
 * its file-history folder. Imported, then both removed (as Claude Code's cleanup does), and opened by a new
 * service on the same data folder: it is listed "source deleted", its graph and node details read, search finds
 * it, it exports, a fork writes a resumable transcript from the store, and a rewind to the step whose file state only the
 * backup knew writes the backup's bytes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { runCliCaptured } from '../cli/run-cli';
import { checkResumableCopy } from '../forks/transcript-rules';
import { writeArchivedSession, type ArchivedSession } from './archive-fixture';

let root: string;
let config: string;
let session: ArchivedSession;
let service: ArborService;

const open = (): Promise<ArborService> =>
  createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: config } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-archive-'));
  config = join(root, 'claude');
  session = writeArchivedSession(config, join(root, 'work'), 'a7c41e00-1500-4000-8000-000000000015');
  const first = await open();
  const report = await first.api['import.run']({ paths: [join(config, 'projects')] });
  expect(report.sessions.map((s) => s.id)).toEqual([session.sessionId]);
  await first.idle();
  // Before the deletion the list has nothing to say.
  expect((await first.api['sessions.list']({})).sessions[0]?.sourceDeleted).toBeUndefined();
  await first.close();
  // Claude Code's cleanup: the transcript and its file-history backups go.
  rmSync(session.transcript);
  rmSync(session.fileHistory, { recursive: true });
  service = await open();
  // The app imports its default locations on start: finding nothing there changes nothing.
  await service.api['import.run']({});
}, 60_000);
afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a session whose transcript and file-history folder were deleted', () => {
  it('is listed, marked "source deleted", with all its nodes', async () => {
    // The list waits for its stats only so long (a slow disk is answered later, with sessions.changed).
    await expect.poll(async () => (await service.api['sessions.list']({})).sessions[0]?.sourceDeleted).toBe(true);
    const { sessions } = await service.api['sessions.list']({});
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: session.sessionId, sourceDeleted: true, nodeCount: session.lines.size });
    const ls = await runCliCaptured(['--data-dir', join(root, 'data'), 'ls'], { cwd: root, homeDir: join(root, 'home'), env: { CLAUDE_CONFIG_DIR: config } });
    expect(ls.stdout).toMatch(/Draft the release notes[^\n]*\n\s+source deleted \(the store keeps every line\)/);
  });

  it('browses: the graph and a node detail with its content', async () => {
    const graph = await service.api['sessions.graph']({ sessionId: session.sessionId });
    expect(graph.nodes.map((node) => node.id).sort()).toEqual([...session.lines.keys()].sort());
    const detail = await service.api['nodes.get']({ nodeId: session.checkpointPrompt });
    expect(JSON.stringify(detail.blocks)).toContain('Polish the quarterly notes');
    expect(detail.raw).toBe(session.lines.get(session.checkpointPrompt));
  });

  it('is found by search', async () => {
    const found = await service.api['search.query']({ query: 'quarterly' });
    expect(found.hits.map((hit) => hit.sessionId)).toContain(session.sessionId);
    expect(found.hits.length).toBeGreaterThanOrEqual(2);
  });

  it('exports: the Markdown holds its prompts and replies', async () => {
    const out = join(root, 'export.md');
    const written = await service.api['export.write']({ target: session.sessionId, format: 'md', out });
    expect(written.nodes).toBeGreaterThan(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('Polish the quarterly notes');
    expect(text).toContain('Drafted the quarterly notes.');
  });

  it('knows the file state the backup gave, from the store', async () => {
    expect(await service.api['nodes.file']({ nodeId: session.checkpointPrompt, path: session.notes })).toMatchObject({ content: 'draft\n', known: 'reconstructed' });
    expect(await service.api['nodes.file']({ nodeId: session.editResult, path: session.notes })).toMatchObject({ content: 'final\n', known: 'reconstructed' });
  });

  it('forks: the resumable transcript is written from the store and keeps the rules', async () => {
    const target = join(root, 'fork');
    const created = await service.api['fork.create']({ nodeId: session.checkpointPrompt, dir: target });
    expect(created.transcript).not.toBeNull();
    expect(readFileSync(join(created.dir, 'notes.txt'), 'utf8')).toBe('draft\n');
    const text = readFileSync(created.transcript!, 'utf8');
    const sourceLine = (uuid: string): string => {
      const line = session.lines.get(uuid);
      if (line === undefined) throw new Error(`no source line ${uuid}`);
      return line;
    };
    expect(
      checkResumableCopy(text, { sessionId: created.resumeSessionId!, target: session.checkpointPrompt, targetKept: true, sourceLine, move: { from: session.cwd, to: created.dir } }),
    ).toEqual([]);
    // Its /rewind checkpoints: the backup Claude Code removed, written back from the store for the new session.
    expect(readFileSync(join(config, 'file-history', created.resumeSessionId!, '5eed0123abcd4567@v1')).equals(session.backupBytes)).toBe(true);
  });

  it("rewinds the workspace to the step whose state came from the backup: the file gets the backup's bytes", async () => {
    writeFileSync(session.notes, 'final\n');
    const preview = await service.api['rewind.preview']({ nodeId: session.checkpointPrompt, workspace: session.cwd });
    expect(preview.written).toContain('notes.txt');
    const outcome = await service.api['rewind.apply']({ nodeId: session.checkpointPrompt, workspace: session.cwd, token: preview.token });
    expect(outcome.status).toBe('applied');
    expect(readFileSync(session.notes).equals(session.backupBytes)).toBe(true);
    expect(existsSync(session.fileHistory)).toBe(false);
  });
});
