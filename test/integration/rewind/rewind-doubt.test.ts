/**
 * Regressions: a reconstructed rewind (and a fork) wrote the replayed content of a file the reconstruction
 * marks in doubt as if it were known. Now a replay known to be stale (changed outside the transcript) is left
 * alone as `unknown-content`, and a replay only in doubt since a shell command is written and listed as
 * unverified in the preview, since which step and why; undo restores it byte for byte.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { NodeSummary } from '../../../shared/model';
import { writeDoubtedSession, type DoubtedSession } from './doubted-transcript';
import { describeFiles, readAllFiles } from './workspace-files';

let root: string;
let workspace: string;
let service: ArborService;
let session: DoubtedSession;
let command: NodeSummary;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-rewind-doubt-'));
  workspace = join(root, 'workspace');
  session = writeDoubtedSession(join(root, 'transcripts', 'doubted.jsonl'), workspace);
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  await service.api['import.run']({ paths: [session.transcript] });
  const { sessions } = await service.api['sessions.list']({});
  const { nodes } = await service.api['sessions.graph']({ sessionId: sessions[0]!.id });
  const call = nodes.find((node) => node.label.startsWith('Bash: npm run format'))!;
  command = nodes.find((node) => node.parentId === call.id && node.kind === 'tool_result')!;
});
afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a reconstructed rewind to a step with files in doubt', () => {
  it('the fixture has one file in doubt since the shell command and one changed outside the transcript', async () => {
    const files = await service.api['nodes.files']({ nodeId: command.id });
    const byName = new Map(files.files.map((file) => [file.path.slice(workspace.length + 1), file]));
    expect(byName.get('doubt.txt')).toMatchObject({ known: 'unknown', unknownSince: command.id, reason: 'shell' });
    expect(byName.get('stale.txt')).toMatchObject({ known: 'unknown', reason: 'changed-outside-transcript' });
  });

  it('a rewind wrote a file’s stale replay as if known: it leaves it alone as unknown-content', async () => {
    const preview = await service.api['rewind.preview']({ nodeId: command.id });
    expect(preview.known).toBe('unknown');
    expect(preview.skipped).toContainEqual({ path: 'stale.txt', reason: 'unknown-content' });
    expect([...preview.written, ...preview.created, ...preview.deleted]).not.toContain('stale.txt');
    expect(preview.unverified.map((file) => file.path)).not.toContain('stale.txt');
  });

  it('a rewind wrote a replay in doubt without saying so: it lists it as unverified, since the command and why', async () => {
    const preview = await service.api['rewind.preview']({ nodeId: command.id });
    expect(preview.written).toContain('doubt.txt');
    expect(preview.unverified).toEqual([{ path: 'doubt.txt', since: command.id, reason: 'shell' }]);
    // Every unverified file is one the rewind writes, creates or deletes.
    for (const file of preview.unverified) expect([...preview.written, ...preview.created, ...preview.deleted]).toContain(file.path);

    const before = readAllFiles(workspace);
    const outcome = await service.api['rewind.apply']({ nodeId: command.id, token: preview.token });
    expect(outcome.status).toBe('applied');
    expect(readFileSync(join(workspace, 'doubt.txt'), 'utf8')).toBe(session.atCommand.doubt);
    expect(readFileSync(join(workspace, 'stale.txt'), 'utf8')).toBe(before.get('stale.txt')!.bytes.toString());
    if (outcome.status !== 'applied') return;
    expect((await service.api['operations.undo']({ operationId: outcome.operation })).status).toBe('applied');
    expect(describeFiles(readAllFiles(workspace))).toEqual(describeFiles(before));
  });

  it('lists nothing as unverified where every file is known', async () => {
    const { nodes } = await service.api['sessions.graph']({ sessionId: command.sessionId });
    const last = nodes.at(-1)!;
    const preview = await service.api['rewind.preview']({ nodeId: last.id });
    expect(preview.known).toBe('reconstructed');
    expect(preview.unverified).toEqual([]);
  });
});

describe('a fork from a step with files in doubt', () => {
  it('a fork wrote a file’s stale replay as if known: it keeps the source’s version, and warns of the unverified one', async () => {
    const dir = join(root, 'fork');
    const fork = await service.api['fork.create']({ nodeId: command.id, dir });
    expect(fork.skipped).toContainEqual({ path: 'stale.txt', reason: 'unknown-content' });
    expect(readFileSync(join(dir, 'stale.txt'), 'utf8')).toBe(readFileSync(join(workspace, 'stale.txt'), 'utf8'));
    expect(existsSync(join(dir, 'doubt.txt'))).toBe(true);
    expect(readFileSync(join(dir, 'doubt.txt'), 'utf8')).toBe(session.atCommand.doubt);
    expect(fork.warnings?.some((warning) => warning.includes('not verified') && warning.includes('doubt.txt'))).toBe(true);
  });
});
