/**
 * Regression: `arbor rewind` presented a replayed file in doubt as known. Over a generated transcript with one
 * file in doubt since a shell command and one changed outside the transcript: --dry-run's text warns of the
 * unverified file, since which step and why, and lists the stale one as left alone; --json carries the same
 * `unverified` list; the rewind writes the unverified file and leaves the stale one as it is.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { NodeSummary } from '../../../shared/model';
import type { RewindPreview } from '../../../shared/operations';
import { writeDoubtedSession, type DoubtedSession } from '../rewind/doubted-transcript';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
let workspace: string;
let session: DoubtedSession;
let command: NodeSummary;

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home'), env: {} });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-rewind-unverified-'));
  workspace = join(root, 'workspace');
  session = writeDoubtedSession(join(root, 'transcripts', 'doubted.jsonl'), workspace);
  // The service imports and finds the step; the CLI then works on the same data folder.
  const service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  await service.api['import.run']({ paths: [session.transcript] });
  const { sessions } = await service.api['sessions.list']({});
  const { nodes } = await service.api['sessions.graph']({ sessionId: sessions[0]!.id });
  await service.close();
  const call = nodes.find((node) => node.label.startsWith('Bash: npm run format'))!;
  command = nodes.find((node) => node.parentId === call.id && node.kind === 'tool_result')!;
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('arbor rewind with files in doubt', () => {
  it('warns, in the --dry-run text, of the file written from an unverified replay, and leaves the stale one alone', async () => {
    const run = await cli(['rewind', command.id, '--dry-run']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Warning: written from the transcript's replay, not verified \(1\):$/m);
    expect(run.stdout).toContain(`\n  ! doubt.txt  (since ${command.id}: a shell command may have changed it)\n`);
    expect(run.stdout).toMatch(/^ {2}stale\.txt {2}\(content at the node unknown, or its replay known to be stale\)$/m);
    expect(readFileSync(join(workspace, 'doubt.txt'), 'utf8')).not.toBe(session.atCommand.doubt);
  });

  it('gives the unverified list in --json, and the rewind writes that file and not the stale one', async () => {
    const dry = JSON.parse((await cli(['rewind', command.id, '--dry-run', '--json'])).stdout) as RewindPreview & { operation: string | null };
    expect(dry.unverified).toEqual([{ path: 'doubt.txt', since: command.id, reason: 'shell' }]);
    expect(dry.skipped).toContainEqual({ path: 'stale.txt', reason: 'unknown-content' });
    const staleBefore = readFileSync(join(workspace, 'stale.txt'), 'utf8');
    const run = await cli(['rewind', command.id, '--expect', dry.token, '--json']);
    expect(run).toMatchObject({ code: 0 });
    const applied = JSON.parse(run.stdout) as { operation: string; unverified: unknown };
    expect(applied.unverified).toEqual(dry.unverified);
    expect(readFileSync(join(workspace, 'doubt.txt'), 'utf8')).toBe(session.atCommand.doubt);
    expect(readFileSync(join(workspace, 'stale.txt'), 'utf8')).toBe(staleBefore);
    expect((await cli(['undo', applied.operation])).code).toBe(0);
    expect(readFileSync(join(workspace, 'doubt.txt'), 'utf8')).toBe('doubt two\n');
  });
});
