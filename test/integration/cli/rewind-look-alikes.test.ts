/**
 * Regression: a transcript whose Write results name `.GIT/config`, `git~1/…` or `.git` followed by an
 * ignorable code point passed the path check, so `arbor rewind` would have written into what macOS or
 * Windows take for the repository. The transcript is generated with Arbor's own generator; the rewind
 * lists those paths as skipped, writes nothing there (neither creating nor deleting), and a fork leaves them out.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGraph } from '../../../shared/model';
import type { ForkCreated, SkippedPath } from '../../../shared/operations';
import { describeFiles, readAllFiles } from '../rewind/workspace-files';
import { runCliCaptured, type Run } from './run-cli';
import { writingTranscript } from './written-transcript';

const LOOK_ALIKES = ['.GIT/config', 'src/.Git/hooks/pre-commit', 'deep/er/.git./config', '.git /HEAD', '.git\u200c/config', 'lib/GIT~1/config', 'a/b/c/.git\ufeff/hooks/post-checkout'];

let root: string;
let project: string;
let graph: SessionGraph;

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home') });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-look-alikes-'));
  mkdirSync(join(root, 'home'));
  project = join(root, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'README.md'), '# project\n');
  const file = join(root, 'session.jsonl');
  writeFileSync(file, writingTranscript(project, [['notes.txt', 'hooks set up\n'], ...LOOK_ALIKES.map((path) => [path, '[core]\n\thooksPath = /tmp/evil\n'] as const)]));
  const imported = await cli(['import', file, '--json']);
  if (imported.code !== 0) throw new Error(imported.stderr);
  const sessionId = (JSON.parse((await cli(['ls', '--json'])).stdout) as { sessions: { id: string }[] }).sessions[0]!.id;
  graph = JSON.parse((await cli(['show', sessionId, '--json'])).stdout) as SessionGraph;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lastNode = (): string => graph.nodes.at(-1)!.id;
const prompt = (): string => graph.nodes.find((node) => node.kind === 'user')!.id;

describe('a transcript naming paths that become .git elsewhere', () => {
  it('arbor rewind --dry-run lists every one as skipped (unsafe path), at every depth', async () => {
    const run = await cli(['rewind', lastNode(), '--dry-run', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse(run.stdout) as { created: string[]; written: string[]; deleted: string[]; skipped: SkippedPath[] };
    expect(json.created).toEqual(['notes.txt']);
    expect([...json.written, ...json.deleted]).toEqual([]);
    expect(json.skipped).toEqual([...LOOK_ALIKES].sort().map((path) => ({ path, reason: 'unsafe-path' })));
  });

  it('the rewind writes nothing there, and a rewind back deletes nothing there', async () => {
    const run = await cli(['rewind', lastNode(), '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(Object.keys(describeFiles(readAllFiles(project)))).toEqual(['README.md', 'notes.txt']);
    // The user has a folder of that name on Linux: rewinding to before the writes leaves it alone.
    mkdirSync(join(project, '.GIT'));
    writeFileSync(join(project, '.GIT', 'config'), 'the user\'s own\n');
    const before = await cli(['rewind', prompt(), '--json']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ deleted: ['notes.txt'], skipped: expect.arrayContaining([{ path: '.GIT/config', reason: 'unsafe-path' }]) });
    expect(Object.keys(describeFiles(readAllFiles(project)))).toEqual(['.GIT/config', 'README.md']);
    rmSync(join(project, '.GIT'), { recursive: true });
  });

  it('a fork from the node does not create them and says so', async () => {
    const run = await cli(['fork', lastNode(), '--to', join(root, 'fork'), '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(run.stdout) as ForkCreated;
    expect(readdirSync(created.dir).sort()).toEqual(['README.md', 'notes.txt']);
    for (const path of LOOK_ALIKES) expect(existsSync(join(created.dir, path)), path).toBe(false);
    expect(created.skipped?.filter((skip) => skip.reason === 'unsafe-path').map((skip) => skip.path).sort()).toEqual([...LOOK_ALIKES].sort());
  });
});
