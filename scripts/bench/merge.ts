/**
 * `npm run bench:merge`: the three-way merge engine beside `git merge-file`, on a code-like file
 * (many repeated `}` and blank lines) with scattered edits on each side.
 *  - in-process: mergeText() in this process vs `git merge-file -p` as a process (target ≤ 1×);
 *  - as a process: `arbor merge-file -p` vs `git merge-file -p`;
 *  - the same at 50,000 lines, to show there is no quadratic blow-up;
 *  - the lean entry's start (`arbor merge-file` on three one-line files) vs `node -e ''` (anchor).
 * Each figure is timed in rounds alternating with its anchor, so load on a shared machine falls on
 * both alike; the load average is printed with the figures.
 * With `--child <args>` this file runs `arbor merge-file` itself (used when bin/arbor.cjs is absent).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mergeFileCommand } from '../../electron/cli/commands/merge-file';
import { mergeText } from '../../shared/merge';
import { mulberry32 } from '../../shared/random';

const repoRoot = resolve(import.meta.dirname, '../..');


/** A file of small functions: the repeated `}`, `  }` and blank lines are what make diffs hard. */
function codeFile(lines: number, random: () => number): string[] {
  const out: string[] = [];
  for (let f = 0; out.length < lines; f++) {
    out.push(`function handle${f}(input, options) {`);
    out.push(`  const value${f} = compute(input, ${Math.floor(random() * 100)});`);
    out.push('  if (value == null) {');
    out.push('    return null;');
    out.push('  }');
    if (random() < 0.5) out.push('', `  for (const item of input.items) {`, '    total += item;', '  }');
    out.push('  return value;', '}', '');
  }
  return out.slice(0, lines);
}

/** `count` scattered edits (change, insert, delete) in distinct stretches of the file. */
function scatterEdits(base: readonly string[], count: number, random: () => number, tag: string, offset: number): string[] {
  const lines = [...base];
  const stride = Math.floor(base.length / count);
  // Edit from the bottom up so earlier positions stay valid.
  for (let e = count - 1; e >= 0; e--) {
    const at = e * stride + Math.floor(stride * offset) + Math.floor(random() * (stride / 4));
    const kind = e % 3;
    if (kind === 0) lines[at] = `  const ${tag}${e} = tweak(${e});`;
    else if (kind === 1) lines.splice(at, 0, `  log('${tag} ${e}');`, '  }', '');
    else lines.splice(at, 2);
  }
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function timeMs(run: () => void, repeat: number): number {
  return timePair(run, () => undefined, repeat)[0];
}

/** Medians of `run` and its anchor, timed in alternating rounds. */
function timePair(run: () => void, anchor: () => void, repeat: number): [number, number] {
  const times: number[] = [];
  const anchors: number[] = [];
  for (let i = 0; i < repeat; i++) {
    let start = performance.now();
    run();
    times.push(performance.now() - start);
    start = performance.now();
    anchor();
    anchors.push(performance.now() - start);
  }
  return [median(times), median(anchors)];
}

const load = (): string => loadavg().map((n) => n.toFixed(2)).join(' ');

function runProcess(command: string, args: readonly string[], cwd: string): { status: number | null; stdout: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout };
}

function arborCommand(): { command: string; args: string[] } {
  const bin = join(repoRoot, 'bin/arbor.cjs');
  if (existsSync(bin)) return { command: process.execPath, args: [bin, 'merge-file'] };
  return { command: process.execPath, args: ['--import', 'tsx', join(repoRoot, 'scripts/bench/merge.ts'), '--child'] };
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

function benchCase(lines: number, edits: number, processRuns: number): void {
  const random = mulberry32(lines + edits);
  const base = codeFile(lines, random);
  const ours = scatterEdits(base, edits, random, 'ours', 0);
  const theirs = scatterEdits(base, edits, random, 'theirs', 0.5);
  const [baseText, oursText, theirsText] = [base, ours, theirs].map((l) => `${l.join('\n')}\n`) as [string, string, string];
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-merge-'));
  try {
    writeFileSync(join(dir, 'ours'), oursText);
    writeFileSync(join(dir, 'base'), baseText);
    writeFileSync(join(dir, 'theirs'), theirsText);
    const files = ['ours', 'base', 'theirs'];

    const git = runProcess('git', ['merge-file', '-p', ...files], dir);
    const engine = mergeText(baseText, oursText, theirsText, { style: 'merge' });
    const agree = engine.text === git.stdout && engine.conflicts === git.status;

    const cold = timeMs(() => mergeText(baseText, oursText, theirsText), 1);
    for (let i = 0; i < 5; i++) mergeText(baseText, oursText, theirsText);
    const runGit = (): unknown => runProcess('git', ['merge-file', '-p', ...files], dir);
    const [inProcess, gitProcess] = timePair(() => mergeText(baseText, oursText, theirsText), runGit, processRuns);
    const arbor = arborCommand();
    const arborOut = runProcess(arbor.command, [...arbor.args, '-p', ...files], dir);
    const [arborProcess, gitAnchor] = timePair(() => runProcess(arbor.command, [...arbor.args, '-p', ...files], dir), runGit, Math.max(3, Math.floor(processRuns / 4)));

    console.log(`\n${lines.toLocaleString('en-US')} lines, ${edits} edits per side: ${engine.conflicts} conflicts; same output as git: ${agree ? 'yes' : 'NO'}; arbor process output same: ${arborOut.stdout === git.stdout && arborOut.status === git.status ? 'yes' : 'NO'}`);
    console.log(`  in-process mergeText      ${fmt(inProcess).padStart(10)}  (first call ${fmt(cold)})  vs git merge-file process ${fmt(gitProcess)}  → ${(inProcess / gitProcess).toFixed(2)}×`);
    console.log(`  arbor merge-file process  ${fmt(arborProcess).padStart(10)}  vs git merge-file process ${fmt(gitAnchor)}  → ${(arborProcess / gitAnchor).toFixed(2)}×  (load ${load()})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lean entry's start, inside a git repository (it reads merge.conflictStyle there) and outside. */
function benchStart(arbor: { command: string; args: string[] }): void {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-bench-merge-start-'));
  try {
    for (const name of ['ours', 'base', 'theirs']) writeFileSync(join(dir, name), `${name}\n`);
    const env = { ...process.env, GIT_CEILING_DIRECTORIES: dir };
    const timed = (cwd: string): [number, number] =>
      timePair(
        () => spawnSync(arbor.command, [...arbor.args, '-p', 'ours', 'base', 'theirs'], { cwd, env }),
        () => spawnSync(process.execPath, ['-e', ''], { cwd, env }),
        15,
      );
    const [outside, nodeOutside] = timed(dir);
    spawnSync('git', ['init', '-q', join(dir, 'repo')]);
    for (const name of ['ours', 'base', 'theirs']) writeFileSync(join(dir, 'repo', name), `${name}\n`);
    const [inside, nodeInside] = timed(join(dir, 'repo'));
    console.log(`\narbor merge-file start (three one-line files):`);
    console.log(`  outside a repository      ${fmt(outside).padStart(10)}  vs node -e '' ${fmt(nodeOutside)}  → ${(outside / nodeOutside).toFixed(2)}×`);
    console.log(`  inside a repository       ${fmt(inside).padStart(10)}  vs node -e '' ${fmt(nodeInside)}  → ${(inside / nodeInside).toFixed(2)}×  (load ${load()})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(args: readonly string[]): Promise<void> {
  const status = await mergeFileCommand.run(args, {
    io: {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stdin: process.stdin,
      cwd: process.cwd(),
      env: process.env,
      interactive: false,
    },
    service: () => Promise.reject(new Error('merge-file does not use the store')),
    signal: new AbortController().signal,
  });
  process.exitCode = status;
}

if (process.argv[2] === '--child') {
  void child(process.argv.slice(3));
} else {
  const gitVersion = spawnSync('git', ['--version'], { encoding: 'utf8' });
  if (gitVersion.status !== 0) {
    console.log('git is not installed: nothing to compare against.');
  } else {
    console.log(`merge benchmark (${gitVersion.stdout.trim()}, node ${process.version}); times are medians; load average ${load()}`);
    const arbor = arborCommand();
    // bin/arbor.cjs says which entry it runs (the lean merge-file bundle unless the build is stale).
    const trace = spawnSync(arbor.command, [...arbor.args, '--help'], { encoding: 'utf8', env: { ...process.env, ARBOR_CLI_TRACE: '1' } });
    const entry = /arbor: running (.+)/.exec(trace.stderr)?.[1] ?? 'the scripts/bench/merge.ts --child entry';
    console.log(`arbor merge-file runs as: ${arbor.args[0]?.endsWith('arbor.cjs') ? 'node bin/arbor.cjs' : 'node --import tsx scripts/bench/merge.ts --child'} (${entry})`);
    benchCase(10_000, 50, 20);
    benchCase(50_000, 50, 10);
    benchCase(50_000, 250, 10);
    benchStart(arbor);
  }
}
