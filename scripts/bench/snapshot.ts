/**
 * Snapshot store benchmark: `npm run bench:snapshot [-- --files 10000 --rounds 3 --dir /tmp]`.
 * Generates a workspace of N files of 2 KB in nested folders, then measures, each beside a native-git
 * anchor timed in the same run (rounds interleave Arbor and git; figures are medians):
 *   - full capture            vs `git add -A && git commit` into a fresh repository   target ≤ 0.5×
 *   - incremental capture after changing 10 files vs the same with git                target ≤ 1.0×
 *   - fork materialization into a new directory vs `git archive | tar -x`            target ≤ 1.5×
 *   - rewind of 100 changed files through the service, for a session with a small and one with a large
 *     transcript (rewind-figure.ts): the rewind (apply) vs `git checkout -- <files>`     target ≤ 100 ms,
 *     and its preview vs `git status --porcelain` (figure only)
 * `--only-rewind` measures just the rewind figures; `--rewind-small N` / `--rewind-large N` set the transcripts' sizes.
 * Git runs with `-c gc.auto=0`. Needs `git` and `tar` on PATH. The disk is settled (`sync`, untimed) before
 * every timed step, so no step is timed while the kernel writes back the one before it.
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureDirectory } from '../../electron/git/capture';
import { materializeSnapshot } from '../../electron/git/materialize';
import { SnapshotStore } from '../../electron/git/object-store';
import type { PackCompression } from '../../electron/git/pack-writer';
import { StatCache } from '../../electron/git/stat-cache';
import { measureRewind, type RewindSample } from './rewind-figure';
import { settle } from './settle';
import { argValue } from './bench-args';

const FILE_BYTES = 2048;

function fileContent(seed: number, version: number): string {
  let text = '';
  for (let line = 0; text.length < FILE_BYTES; line++) {
    text += `// file ${seed} v${version} line ${line}: ${((seed * 7919 + line * 104729 + version) % 1_000_003).toString(36)} lorem ipsum dolor sit amet\n`;
  }
  return text.slice(0, FILE_BYTES);
}

/** N files in three levels of folders (e.g. 10k = 20 × 10 folders of 50 files). */
function generateWorkspace(root: string, count: number): string[] {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = `pkg${i % 20}/mod${Math.floor(i / 20) % 10}/file${i}.ts`;
    paths.push(path);
  }
  const made = new Set<string>();
  paths.forEach((path, i) => {
    const folder = join(root, path.slice(0, path.lastIndexOf('/')));
    if (!made.has(folder)) mkdirSync(folder, { recursive: true });
    made.add(folder);
    writeFileSync(join(root, path), fileContent(i, 0));
  });
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  return paths;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function time<T>(work: () => T): [T, number] {
  settle();
  const start = performance.now();
  const result = work();
  return [result, performance.now() - start];
}

async function timeAsync<T>(work: () => Promise<T>): Promise<[T, number]> {
  settle();
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

const gitCommand = (gitDir: string, workTree: string, args: string): string =>
  `git --git-dir="${gitDir}" --work-tree="${workTree}" -c gc.auto=0 -c user.name=Bench -c user.email=bench@example.invalid ${args}`;

function git(gitDir: string, workTree: string, args: string): string {
  return execSync(gitCommand(gitDir, workTree, args), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** What the anchor does for every capture: stage everything, commit. */
function gitAddCommit(gitDir: string, workTree: string, message: string): void {
  execSync(`${gitCommand(gitDir, workTree, 'add -A')} && ${gitCommand(gitDir, workTree, `commit -q -m ${message}`)}`, { stdio: 'ignore' });
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Figure {
  readonly name: string;
  readonly ours: number[];
  readonly anchor: number[];
  readonly target: string;
  readonly check: (ours: number, anchor: number) => boolean;
}

async function main(): Promise<void> {
  const count = Number(argValue('--files') ?? 10_000);
  // Five rounds: the disk here is noisy (git's own times vary up to 3× between rounds), medians need them.
  const rounds = Number(argValue('--rounds') ?? 5);
  const compression = (argValue('--compression') ?? 'stored') as PackCompression;
  const base = mkdtempSync(join(argValue('--dir') ?? tmpdir(), 'arbor-bench-snapshot-'));
  execFileSync('git', ['--version']);
  const workspace = join(base, 'workspace');
  console.log(`Generating ${count} files of ${FILE_BYTES} B in ${workspace} …`);
  const paths = generateWorkspace(workspace, count);
  // Let the files age past the stat cache's racy-timestamp window, as real files would be.
  await sleep(100);

  const full: Figure = { name: 'full capture', ours: [], anchor: [], target: '≤ 0.5×', check: (o, a) => o <= 0.5 * a };
  const incremental: Figure = { name: 'incremental capture (10 changed)', ours: [], anchor: [], target: '≤ 1.0×', check: (o, a) => o <= a };
  const fork: Figure = { name: 'fork materialization', ours: [], anchor: [], target: '≤ 1.5×', check: (o, a) => o <= 1.5 * a };
  let version = 1;
  let rewindSamples: RewindSample[] = [];
  const mainRounds = process.argv.includes('--only-rewind') ? 0 : rounds;

  try {
    for (let round = 0; round < mainRounds; round++) {
      const dataDir = join(base, `data-${round}`);
      const gitDir = join(base, `git-${round}.git`);
      execFileSync('git', ['init', '-q', '--bare', gitDir]);
      const store = SnapshotStore.open({ dataDir, compression });
      const cache = await StatCache.forDirectory(store, workspace);
      const gitFirst = round % 2 === 1;

      // Full capture.
      const runGitFull = () => time(() => gitAddCommit(gitDir, workspace, 'full'));
      let gitFull = 0;
      if (gitFirst) gitFull = runGitFull()[1];
      const [first, ourFull] = await timeAsync(() => captureDirectory(store, workspace, { statCache: cache }));
      if (!gitFirst) gitFull = runGitFull()[1];
      const gitTree = git(gitDir, workspace, 'rev-parse HEAD^{tree}');
      if (gitTree !== first.treeOid) throw new Error(`Tree mismatch: git ${gitTree}, Arbor ${first.treeOid}`);
      full.ours.push(ourFull);
      full.anchor.push(gitFull);

      // Incremental capture after changing 10 files.
      await sleep(50);
      for (let i = 0; i < 10; i++) {
        const index = (round * 997 + i * 613) % paths.length;
        writeFileSync(join(workspace, paths[index]!), fileContent(index, version++));
      }
      const runGitIncremental = () => time(() => gitAddCommit(gitDir, workspace, 'step'));
      let gitIncremental = 0;
      if (gitFirst) gitIncremental = runGitIncremental()[1];
      const [second, ourIncremental] = await timeAsync(() => captureDirectory(store, workspace, { statCache: cache }));
      if (!gitFirst) gitIncremental = runGitIncremental()[1];
      if (git(gitDir, workspace, 'rev-parse HEAD^{tree}') !== second.treeOid) throw new Error('Tree mismatch after the incremental capture');
      if (second.filesRead > 20) throw new Error(`Incremental capture re-read ${second.filesRead} files`);
      incremental.ours.push(ourIncremental);
      incremental.anchor.push(gitIncremental);

      // Fork: materialize the tree into a new directory.
      const ourFork = join(base, `fork-ours-${round}`);
      const gitFork = join(base, `fork-git-${round}`);
      mkdirSync(gitFork);
      const runGitFork = () => time(() => execSync(`git --git-dir="${gitDir}" archive HEAD | tar -x -C "${gitFork}"`, { stdio: ['ignore', 'ignore', 'pipe'] }));
      let gitForkMs = 0;
      if (gitFirst) gitForkMs = runGitFork()[1];
      const [, ourForkMs] = await timeAsync(() => materializeSnapshot(store, second.treeOid, ourFork));
      if (!gitFirst) gitForkMs = runGitFork()[1];
      fork.ours.push(ourForkMs);
      fork.anchor.push(gitForkMs);

      store.close();
      // The fork folders stay until the end: deleting 20k files between rounds (the disk here discards freed
      // blocks) slowed whatever was timed next.
      console.log(`round ${round + 1}/${rounds}: full ${ourFull.toFixed(0)}/${gitFull.toFixed(0)} ms, incremental ${ourIncremental.toFixed(0)}/${gitIncremental.toFixed(0)} ms, fork ${ourForkMs.toFixed(0)}/${gitForkMs.toFixed(0)} ms`);
    }
    // Rewind of 100 changed files through the service, for a small and a large transcript.
    rewindSamples = await measureRewind({
      base,
      rounds: Math.max(rounds, 5),
      generate: (root) => generateWorkspace(root, count),
      content: fileContent,
      smallNodes: Number(argValue('--rewind-small') ?? 200),
      largeNodes: Number(argValue('--rewind-large') ?? 20_000),
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const rewindFigures: Figure[] = rewindSamples.flatMap((sample): Figure[] => [
    {
      name: `rewind 100 files (${sample.label}: ${sample.nodes} nodes)`,
      ours: sample.apply,
      anchor: sample.anchor,
      target: '≤ 100 ms',
      check: (ours) => ours <= 100,
    },
    {
      name: `  its preview (vs git status)`,
      ours: sample.preview,
      anchor: sample.statusAnchor,
      target: 'figure',
      check: () => true,
    },
  ]);

  console.log(`\nSnapshot store, ${count} files × ${FILE_BYTES} B, ${rounds} rounds (medians), packs: ${compression}`);
  // Ratios are of the medians; "paired" is the median of each round's own ratio (both sides ran back to
  // back), which is steadier on a busy machine.
  console.log('figure                               Arbor ms   git ms   ratio  paired   target');
  let failed = 0;
  for (const figure of [full, incremental, fork, ...rewindFigures].filter((f) => f.ours.length > 0)) {
    const ours = median(figure.ours);
    const anchor = figure.anchor.length > 0 ? median(figure.anchor) : NaN;
    const ok = figure.check(ours, anchor);
    if (!ok) failed++;
    const ratio = Number.isNaN(anchor) ? '   —' : `${(ours / anchor).toFixed(2)}×`;
    const paired = Number.isNaN(anchor) ? '   —' : `${median(figure.ours.map((o, i) => o / figure.anchor[i]!)).toFixed(2)}×`;
    const anchorText = Number.isNaN(anchor) ? '—' : anchor.toFixed(0);
    console.log(`${figure.name.padEnd(36)} ${ours.toFixed(0).padStart(8)} ${anchorText.padStart(8)} ${ratio.padStart(7)} ${paired.padStart(7)}   ${figure.target.padEnd(9)}  ${ok ? 'met' : 'MISSED'}`);
  }
  const [small, large] = rewindSamples;
  if (small && large) {
    const ratio = median(large.apply) / median(small.apply);
    console.log(
      `rewind: large/small transcript ${ratio.toFixed(2)}× (independent of the transcript's size when ≈ 1); ` +
        `first preview after import (loads the session): ${small.coldPreviewMs.toFixed(0)} ms / ${large.coldPreviewMs.toFixed(0)} ms`,
    );
    for (const sample of rewindSamples) {
      console.log(`rewind (${sample.label}): preview ${median(sample.preview).toFixed(0)} ms + apply ${median(sample.apply).toFixed(0)} ms (medians)`);
    }
  }
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
