/**
 * `arbor files --json` per file (known, oid, size, unknownSince, reason) and `arbor cat`, in-process through
 * runCli: over the demo session (reconstructed steps, and steps after a shell command made files unknown) and
 * over an exact snapshot of a real folder, whose oids must be what native `git hash-object` gives.
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeFileEntry, NodeFiles, NodeSummary, SnapshotCaptured } from '../../../shared/model';
import { git, gitAvailable, NO_GIT } from '../git/git-fixture';
import { openCliDemo, type CliDemo, type Run } from './run-cli';

let demo: CliDemo;
let workspace: string;
/** The result of the main branch's first shell command that may write files (they are unknown from it), and the step before it. */
let bashResult: NodeSummary;
let beforeBash: NodeSummary;

beforeAll(async () => {
  demo = await openCliDemo('arbor-cli-files-cat-');
  workspace = demo.graph.session.project!;
  const main = demo.graph.nodes.filter((node) => !node.sidechain);
  // The demo's earlier commands are read-only (`git diff`, `grep`): they leave the files known.
  const index = main.findIndex((node) => node.kind === 'tool_result' && /^Bash: npm run build/.test(main.find((call) => call.id === node.parentId)?.label ?? ''));
  bashResult = main[index]!;
  beforeBash = main[index - 1]!;
});
afterAll(() => demo.remove());

const cli = (args: string[]): Promise<Run> => demo.cli(args);

async function filesOf(nodeId: string): Promise<NodeFiles> {
  const run = await cli(['files', nodeId, '--json']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as NodeFiles;
}

/** What native git names these bytes (a sandboxed git: no user config can change the hashing). */
function gitHash(bytes: Buffer | string): string {
  const file = join(demo.root, 'hashed');
  writeFileSync(file, bytes);
  return git(demo.root, ['hash-object', '--', file]).trim();
}

describe('arbor files --json, per file', () => {
  it('gives each file of a reconstructed step its oid and size, which match what arbor cat prints', async () => {
    const files = await filesOf(beforeBash.id);
    expect(files.known).toBe('reconstructed');
    expect(files.files.length).toBeGreaterThanOrEqual(5);
    for (const file of files.files) {
      expect(file).toMatchObject({ known: 'reconstructed', oid: expect.stringMatching(/^[0-9a-f]{40}$/) as string, size: expect.any(Number) as number });
      expect(file).not.toHaveProperty('unknown');
      const cat = await cli(['cat', beforeBash.id, file.path]);
      expect(cat).toMatchObject({ code: 0, stderr: '' });
      expect(cat.stdoutBytes.length, file.path).toBe((file as { size: number }).size);
      if (gitAvailable) expect(gitHash(cat.stdoutBytes), file.path).toBe((file as { oid: string }).oid);
    }
  });

  it('marks every file unknown from the shell command’s result, with that step and the reason, and no oid or size', async () => {
    const files = await filesOf(bashResult.id);
    expect(files.known).toBe('unknown');
    expect(files.files.length).toBeGreaterThanOrEqual(5);
    for (const file of files.files) {
      expect(file).toEqual({ path: file.path, known: 'unknown', unknownSince: bashResult.id, reason: 'shell', unknown: true, ...(file.status ? { status: file.status } : {}) });
    }
  });

  it('shows the per-file state in the text listing: a ? and the reason for unknown files, sizes for known ones', async () => {
    const unknown = await cli(['files', bashResult.id]);
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toMatch(/^Files: +\d+, \d+ not known \(\?\)$/m);
    const count = join(workspace, 'src/count.ts');
    expect(unknown.stdout).toMatch(new RegExp(`^State: +unknown .*, since ${bashResult.id}$`, 'm'));
    expect(unknown.stdout).toContain(`\n   ? -  ${count}  (not known: a shell command may have changed it)\n`);

    const known = await cli(['files', beforeBash.id]);
    const size = ((await filesOf(beforeBash.id)).files.find((file) => file.path === count) as { size: number }).size;
    expect(known.stdout).toMatch(new RegExp(`^ {4} +${size}  ${count.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
    expect(known.stdout).not.toContain('?');
  });
});

/** A real folder with the kinds of file a snapshot holds, and its exact snapshot. */
let folder: string;
let snapshot: SnapshotCaptured;
const binary = Buffer.from([0x00, 0xff, 0x10, 0x00, 0x7f, 0x80, 0x0a, 0x0d, 0x00]);

describe('arbor files on an exact snapshot of a real folder', () => {
  let files: NodeFiles;

  beforeAll(async () => {
    folder = join(demo.root, 'real');
    mkdirSync(join(folder, 'src', 'deep'), { recursive: true });
    writeFileSync(join(folder, 'README.md'), '# Real\n');
    writeFileSync(join(folder, 'no-newline.txt'), 'no final newline');
    writeFileSync(join(folder, 'empty'), '');
    writeFileSync(join(folder, 'src', 'deep', 'ünï.md'), 'Grüße — ✓\n');
    writeFileSync(join(folder, 'image.bin'), binary);
    writeFileSync(join(folder, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(folder, 'run.sh'), 0o755);
    symlinkSync('README.md', join(folder, 'link-to-readme'));
    const run = await cli(['snapshot', folder, '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    snapshot = JSON.parse(run.stdout) as SnapshotCaptured;
    files = await filesOf(snapshot.node.id);
  });

  const entry = (relative: string): NodeFileEntry & { oid: string; size: number } => {
    const found = files.files.find((file) => file.path === join(folder, relative));
    if (found?.known !== 'exact') throw new Error(`${relative} is not an exact file of the snapshot`);
    return found;
  };

  it.skipIf(!gitAvailable)(`gives every file the oid git hash-object gives the real file, a symlink its target’s${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
    expect(files.known).toBe('exact');
    const relatives = files.files.map((file) => file.path.slice(folder.length + 1)).sort();
    expect(relatives).toEqual(['README.md', 'empty', 'image.bin', 'link-to-readme', 'no-newline.txt', 'run.sh', 'src/deep/ünï.md'].sort());
    for (const relative of relatives) {
      const real = join(folder, relative);
      const file = entry(relative);
      const stats = lstatSync(real);
      // git stores a symlink as a blob of its target path (mode 120000); hash-object on the link would follow it.
      const expected = stats.isSymbolicLink() ? gitHash(readlinkSync(real)) : git(folder, ['hash-object', '--', relative]).trim();
      expect(file.oid, relative).toBe(expected);
      expect(file.size, relative).toBe(stats.size);
    }
    expect(entry('link-to-readme').oid).not.toBe(entry('README.md').oid);
  });

  it.skipIf(!gitAvailable)(`lists the blob ids git itself records when it adds the folder${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
    // A repository beside the folder (--work-tree), so the snapshot's folder holds no .git.
    const gitdir = join(demo.root, 'real.git');
    git(demo.root, ['init', '--quiet', '--bare', gitdir]);
    const other = ['--git-dir', gitdir, '--work-tree', folder];
    git(demo.root, [...other, 'add', '-A']);
    const staged = git(demo.root, [...other, 'ls-files', '-s', '-z'])
      .split('\0')
      .filter(Boolean)
      .map((line) => /^(\d+) ([0-9a-f]{40}) \d\t(.*)$/s.exec(line)!);
    const modes = new Map(staged.map(([, mode, , path]) => [path!, mode]));
    expect([modes.get('run.sh'), modes.get('link-to-readme'), modes.get('README.md')]).toEqual(['100755', '120000', '100644']);
    expect(new Map(files.files.map((file) => [file.path.slice(folder.length + 1), file.known === 'exact' ? file.oid : file.known]))).toEqual(
      new Map(staged.map(([, , oid, path]) => [path!, oid])),
    );
  });
});

describe('arbor cat', () => {
  const cat = (...args: string[]): Promise<Run> => cli(['cat', ...args]);

  it('writes an exact snapshot’s files byte for byte: text without a final newline, binary, a symlink’s target', async () => {
    for (const relative of ['README.md', 'no-newline.txt', 'image.bin', 'src/deep/ünï.md', 'empty', 'run.sh']) {
      const run = await cat(snapshot.node.id, join(folder, relative));
      expect(run, relative).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdoutBytes.equals(readFileSync(join(folder, relative))), relative).toBe(true);
    }
    expect((await cat(snapshot.node.id, join(folder, 'image.bin'))).stdoutBytes.equals(binary)).toBe(true);
    expect((await cat(snapshot.node.id, join(folder, 'link-to-readme'))).stdout).toBe('README.md');
  });

  it('takes a relative path from the snapshot’s folder, whatever the working directory', async () => {
    const run = await cat(snapshot.node.id, 'src/deep/ünï.md');
    expect(run).toMatchObject({ code: 0, stdout: 'Grüße — ✓\n' });
    expect((await cat(snapshot.node.id, './no-newline.txt')).stdout).toBe('no final newline');
  });

  it('fails with a one-line reason for a file the snapshot lacks and for a path outside its folder', async () => {
    const missing = await cat(snapshot.node.id, 'no-such-file');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`arbor: ${join(folder, 'no-such-file')} does not exist at ${snapshot.node.id}\n`);
    const outside = await cat(snapshot.node.id, join(workspace, 'README.md'));
    expect(outside).toMatchObject({ code: 1, stdout: '' });
    expect(outside.stderr).toMatch(/^arbor: the state at \S+ does not cover \S+README\.md: .*a snapshot only its folder\n$/);
  });

  it('writes a reconstructed file, a relative path taken from the session’s folder', async () => {
    const run = await cat(beforeBash.id, 'src/count.ts');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe((await cat(beforeBash.id, join(workspace, 'src/count.ts'))).stdout);
    expect(run.stdout).toContain('export function topWords');
  });

  it('fails for a file that does not exist yet and for a path the session never touched, saying which', async () => {
    const first = demo.graph.nodes[0]!.id;
    const absent = await cat(first, 'src/json.ts');
    expect(absent).toMatchObject({ code: 1, stdout: '' });
    expect(absent.stderr).toBe(`arbor: ${join(workspace, 'src/json.ts')} does not exist at ${first}\n`);
    const untouched = await cat(first, 'debug.log');
    expect(untouched).toMatchObject({ code: 1, stdout: '' });
    expect(untouched.stderr).toMatch(/does not cover \S+debug\.log: a reconstructed state covers only the files the session touched/);
    expect(untouched.stderr.split('\n')).toHaveLength(2);
  });

  it('fails for a file whose content is not known, naming the step and the reason', async () => {
    const run = await cat(bashResult.id, 'src/count.ts');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(new RegExp(`^arbor: the content of \\S+count\\.ts at ${bashResult.id} is not known since step ${bashResult.id} \\[tool_result\\] ✓ Bash .*\\(a shell command may have changed it\\)\n$`));
  });

  it('prints the unverified replay with --replayed, warning on stderr that it is not known to be right', async () => {
    const run = await cat(bashResult.id, 'src/count.ts', '--replayed');
    expect(run.code).toBe(0);
    // Nothing changed the file between the step before the shell command and its result: same replay.
    expect(run.stdout).toBe((await cat(beforeBash.id, 'src/count.ts')).stdout);
    expect(run.stderr).toMatch(/^arbor: warning: .*not known to be right.*a shell command may have changed it\)\n$/);
    // A known file prints as without the flag.
    expect(await cat(beforeBash.id, 'src/count.ts', '--replayed')).toMatchObject({ code: 0, stderr: '', stdout: run.stdout });
  });

  it('has --help, is listed by arbor --help, and exits 2 on bad usage and 1 for an unknown node', async () => {
    const help = await cli(['cat', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: arbor cat NODE PATH \[--replayed\]/);
    expect(help.stdout).toContain('NOT known to be right');
    expect((await cli(['--help'])).stdout).toMatch(/^ {2}cat +Print a file’s content at a node, byte for byte$/m);
    expect((await cat(bashResult.id)).code).toBe(2);
    expect((await cat(bashResult.id, 'a', 'b')).code).toBe(2);
    expect((await cat(bashResult.id, 'src/count.ts', '--bogus')).code).toBe(2);
    const unknownNode = await cat('no-such-node', 'src/count.ts');
    expect(unknownNode.code).toBe(1);
    expect(unknownNode.stderr).toMatch(/\[NOT_FOUND\]\n$/);
  });
});
