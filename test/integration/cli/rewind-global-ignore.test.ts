/**
 * Regression: files git ignores through the global excludes file (~/.config/git/ignore, $XDG_CONFIG_HOME/git/ignore,
 * core.excludesFile) were captured by snapshots and deleted or rewritten by a rewind. With an injected home and
 * XDG folder: `arbor snapshot` leaves them out, and `arbor rewind` and `arbor undo` neither write nor delete them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionGraph, SnapshotCaptured } from '../../../shared/model';
import { describeFiles, readAllFiles } from '../rewind/workspace-files';
import { runCliCaptured, type Run } from './run-cli';
import { writingTranscript } from './written-transcript';

let root: string;
let project: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home'), env });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-global-ignore-'));
  project = join(root, 'project');
  write('project/a.txt', 'a\n');
  write('project/app.log', 'log at the snapshot\n');
  write('project/secrets/key.pem', 'key at the snapshot\n');
  write('project/cache.tmp', 'tmp at the snapshot\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.each([
  { where: '~/.config/git/ignore', setup: () => write('home/.config/git/ignore', '*.log\nsecrets/\n*.tmp\n'), env: {} },
  { where: '$XDG_CONFIG_HOME/git/ignore', setup: () => write('xdg/git/ignore', '*.log\nsecrets/\n*.tmp\n'), env: { XDG_CONFIG_HOME: 'xdg' } },
  {
    where: 'core.excludesFile in ~/.gitconfig',
    setup: () => {
      write('home/.gitconfig', '[core]\n\texcludesFile = ~/.global-ignore\n');
      write('home/.global-ignore', '*.log\nsecrets/\n*.tmp\n');
    },
    env: {},
  },
])('files ignored through $where', ({ setup, env: relativeEnv }) => {
  const env = (): Record<string, string> => Object.fromEntries(Object.entries(relativeEnv).map(([key, value]) => [key, join(root, value)]));

  it('are not in the exact snapshot, and a rewind to it neither writes nor deletes them; nor does its undo', async () => {
    setup();
    const snapshot = await cli(['snapshot', project, '--json'], env());
    expect(snapshot).toMatchObject({ code: 0, stderr: '' });
    const captured = JSON.parse(snapshot.stdout) as SnapshotCaptured;
    expect(captured.snapshot.files).toBe(1);
    const files = JSON.parse((await cli(['files', captured.node.id, '--json'], env())).stdout) as { files: { path: string }[] };
    expect(files.files.map((file) => file.path.slice(project.length + 1))).toEqual(['a.txt']);

    writeFileSync(join(project, 'a.txt'), 'a, edited\n');
    writeFileSync(join(project, 'app.log'), 'log after the snapshot\n');
    writeFileSync(join(project, 'new.log'), 'created after\n');
    rmSync(join(project, 'cache.tmp'));
    const dry = JSON.parse((await cli(['rewind', captured.node.id, '--dry-run', '--json'], env())).stdout) as { written: string[]; created: string[]; deleted: string[] };
    expect(dry).toMatchObject({ written: ['a.txt'], created: [], deleted: [] });

    const applied = await cli(['rewind', captured.node.id, '--json'], env());
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    const after = describeFiles(readAllFiles(project));
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(project, 'app.log'), 'utf8')).toBe('log after the snapshot\n');
    expect(readFileSync(join(project, 'new.log'), 'utf8')).toBe('created after\n');
    expect(readFileSync(join(project, 'secrets/key.pem'), 'utf8')).toBe('key at the snapshot\n');
    expect(existsSync(join(project, 'cache.tmp'))).toBe(false);

    const { operation } = JSON.parse(applied.stdout) as { operation: string };
    expect(await cli(['undo', operation, '--json'], env())).toMatchObject({ code: 0 });
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('a, edited\n');
    const undone = describeFiles(readAllFiles(project));
    expect({ ...undone, 'a.txt': after['a.txt'] }).toEqual(after);
  });

  it('an undo of what is ignored now is refused with nothing written', async () => {
    const snapshot = JSON.parse((await cli(['snapshot', project, '--json'], env())).stdout) as SnapshotCaptured;
    writeFileSync(join(project, 'app.log'), 'log after the snapshot\n');
    const applied = await cli(['rewind', snapshot.node.id, '--json'], env());
    const { operation, written } = JSON.parse(applied.stdout) as { operation: string; written: string[] };
    expect(written).toEqual(['app.log']);
    // The user adds the global ignore file after the rewind: the undo would write an ignored file.
    setup();
    const before = describeFiles(readAllFiles(project));
    const undo = await cli(['undo', operation], env());
    expect(undo.code).toBe(1);
    expect(undo.stderr).toMatch(/app\.log is ignored .*\[BAD_REQUEST\]\n$/);
    expect(describeFiles(readAllFiles(project))).toEqual(before);
  });
});

it('a reconstructed rewind lists a file the session wrote but the global file ignores as ignored, and leaves it alone', async () => {
  write('home/.config/git/ignore', '*.log\n');
  writeFileSync(join(root, 'session.jsonl'), writingTranscript(project, [['notes.txt', 'notes\n'], ['trace.log', 'the agent\'s log\n']]));
  expect((await cli(['import', join(root, 'session.jsonl')])).code).toBe(0);
  const sessionId = (JSON.parse((await cli(['ls', '--json'])).stdout) as { sessions: { id: string }[] }).sessions[0]!.id;
  const last = (JSON.parse((await cli(['show', sessionId, '--json'])).stdout) as SessionGraph).nodes.at(-1)!.id;
  const run = await cli(['rewind', last, '--json']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(run.stdout)).toMatchObject({ created: ['notes.txt'], skipped: [{ path: 'trace.log', reason: 'ignored' }] });
  expect(existsSync(join(project, 'trace.log'))).toBe(false);
});
