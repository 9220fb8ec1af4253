/**
 * `arbor merge` end to end, in-process: a folder captured and forked twice (through the service on the same
 * data folder), the forks changed so that one file merges cleanly and one conflicts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { MergeOutcome, MergePreview } from '../../../shared/operations';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
let home: string;
let dataDir: string;
let ours: { node: string; dir: string };
let theirs: { node: string; dir: string };

const clean = (edit: Record<number, string> = {}): string => Array.from({ length: 10 }, (_, i) => `${edit[i] ?? `line ${i}`}\n`).join('');

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', dataDir, ...args], { cwd: root, homeDir: home });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-merge-'));
  home = join(root, 'home');
  mkdirSync(home);
  dataDir = join(root, 'data');
  const work = join(root, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'clean.txt'), clean());
  writeFileSync(join(work, 'conflict.txt'), 'keep\nvalue = 1\nkeep\n');
  const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {} });
  try {
    const base = await service.api['snapshots.capture']({ dir: work });
    const a = await service.api['fork.create']({ nodeId: base.node.id, dir: join(root, 'ours') });
    const b = await service.api['fork.create']({ nodeId: base.node.id, dir: join(root, 'theirs') });
    ours = { node: a.branch, dir: a.dir };
    theirs = { node: b.branch, dir: b.dir };
  } finally {
    await service.close();
  }
  writeFileSync(join(ours.dir, 'clean.txt'), clean({ 1: 'first (ours)' }));
  writeFileSync(join(ours.dir, 'conflict.txt'), 'keep\nvalue = 2\nkeep\n');
  writeFileSync(join(theirs.dir, 'clean.txt'), clean({ 8: 'eighth (theirs)' }));
  writeFileSync(join(theirs.dir, 'conflict.txt'), 'keep\nvalue = 3\nkeep\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const oursFile = (path: string): string => readFileSync(join(ours.dir, path), 'utf8');

describe('arbor merge', () => {
  it('--dry-run lists each file’s status and exits 1 when conflicts would stop the merge', async () => {
    const run = await cli(['merge', ours.node, theirs.node, '--dry-run']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('M clean.txt (by both)');
    expect(run.stdout).toContain('C conflict.txt (by both, content conflict, 1 hunk)');
    expect(run.stdout).toContain(`Into: ${ours.dir}`);
    expect(oursFile('clean.txt')).toBe(clean({ 1: 'first (ours)' }));
  });

  it('--dry-run --json prints the preview', async () => {
    const run = await cli(['merge', ours.node, theirs.node, '--dry-run', '--json']);
    const preview = JSON.parse(run.stdout) as MergePreview;
    expect(preview.conflicted).toBe(1);
    expect(preview.files.map((file) => [file.path, file.status])).toEqual([
      ['clean.txt', 'clean'],
      ['conflict.txt', 'conflicted'],
    ]);
  });

  it('writes nothing and exits 1 listing the conflicted files', async () => {
    const run = await cli(['merge', ours.node, theirs.node]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('  conflict.txt\n');
    expect(oursFile('clean.txt')).toBe(clean({ 1: 'first (ours)' }));
    expect(oursFile('conflict.txt')).toBe('keep\nvalue = 2\nkeep\n');
  });

  it('rejects --ours with --theirs as bad usage', async () => {
    expect((await cli(['merge', ours.node, theirs.node, '--ours', '--theirs'])).code).toBe(2);
  });

  it('--theirs settles the conflict, merges the rest, and records the merge node', async () => {
    const run = await cli(['merge', ours.node, theirs.node, '--theirs', '--json']);
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout) as MergeOutcome;
    expect(outcome).toMatchObject({ status: 'applied', kind: 'merge', workspace: ours.dir, written: ['clean.txt', 'conflict.txt'] });
    expect(oursFile('clean.txt')).toBe(clean({ 1: 'first (ours)', 8: 'eighth (theirs)' }));
    expect(oursFile('conflict.txt')).toBe('keep\nvalue = 3\nkeep\n');
    if (outcome.status !== 'applied') return;
    const show = await cli(['files', outcome.mergeNode, '--json']);
    expect(show.code).toBe(0);
  });
});
