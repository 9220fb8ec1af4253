/**
 * The "rewind of 100 changed files" figures of `npm run bench:snapshot`: `rewind.preview` + `rewind.apply`
 * through the real service (capture of the workspace, plan, side effects, journaled writes with a safety
 * snapshot) back to an exact snapshot, once for a session with a small transcript and once with a large
 * one, to show the cost does not grow with the transcript. The rewind itself (apply: the checks, the safety
 * snapshot, the journaled writes) is timed against `git checkout -- <the 100 files>`, the preview (which
 * looks at every file of the workspace) against `git status --porcelain`, in a git repository of the same
 * workspace, in the same round.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { syntheticSessionLines } from '../../electron/demo/synthetic';
import { createArborService } from '../../electron/service/arbor-service';
import { settle } from './settle';
import type { ArborService } from '../../electron/service/service-types';

export interface RewindFigureOptions {
  readonly base: string;
  readonly rounds: number;
  /** Generates the workspace (same shape as the other figures) and returns its file paths. */
  readonly generate: (root: string) => string[];
  readonly content: (seed: number, version: number) => string;
  /** Transcript sizes (nodes) of the small and the large session. */
  readonly smallNodes: number;
  readonly largeNodes: number;
}

export interface RewindSample {
  readonly label: string;
  readonly nodes: number;
  readonly ours: number[];
  readonly anchor: number[];
  /** `git status --porcelain` on the changed workspace: the anchor for the preview (both look at every file). */
  readonly statusAnchor: number[];
  /** The two halves of `ours`: preview (capture, plan, side effects) and apply (re-plan, journaled writes). */
  readonly preview: number[];
  readonly apply: number[];
  /** The first preview after import, which loads the session (not part of the medians). */
  readonly coldPreviewMs: number;
}

const CHANGED = 100;

async function writeTranscript(file: string, nodes: number, cwd: string, seed: number): Promise<void> {
  const stream = createWriteStream(file);
  for (const line of syntheticSessionLines(nodes, { seed, cwd, sessionId: `bench-rewind-${nodes}` })) {
    if (!stream.write(`${line}\n`)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
}

async function openSession(base: string, workspace: string, nodes: number): Promise<ArborService> {
  const dataDir = join(base, `rewind-data-${nodes}`);
  const transcripts = join(base, `rewind-transcripts-${nodes}`);
  mkdirSync(transcripts, { recursive: true });
  const file = join(transcripts, `bench-rewind-${nodes}.jsonl`);
  await writeTranscript(file, nodes, workspace, nodes);
  const service = await createArborService({ dataDir, host: 'cli', version: 'bench', homeDir: join(base, 'home'), env: {} });
  await service.api['import.run']({ paths: [file] });
  await service.idle();
  return service;
}

export async function measureRewind(options: RewindFigureOptions): Promise<RewindSample[]> {
  const { base, rounds, content } = options;
  const workspace = join(base, 'rewind-workspace');
  const gitDir = join(base, 'rewind-anchor.git');
  const paths = options.generate(workspace);
  const git = (args: readonly string[]): void =>
    void execFileSync('git', [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, '-c', 'gc.auto=0', '-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', ...args], { stdio: 'ignore' });
  execFileSync('git', ['init', '-q', '--bare', gitDir]);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'workspace']);
  let version = 1_000;
  const changeFiles = (round: number): string[] => {
    const changed = Array.from({ length: CHANGED }, (_, i) => paths[(round * 7919 + i * 97) % paths.length]!);
    for (const path of changed) writeFileSync(join(workspace, path), content(paths.indexOf(path), version++));
    return changed;
  };

  const samples: RewindSample[] = [];
  for (const [label, nodes] of [
    ['small', options.smallNodes],
    ['large', options.largeNodes],
  ] as const) {
    const service = await openSession(base, workspace, nodes);
    try {
      const captured = await service.api['snapshots.capture']({ dir: workspace });
      const nodeId = captured.node.id;
      // Past the stat cache's racy-timestamp window, as a user's later edits would be.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const coldStart = performance.now();
      await service.api['rewind.preview']({ nodeId });
      const coldPreviewMs = performance.now() - coldStart;
      const ours: number[] = [];
      const anchor: number[] = [];
      const statusAnchor: number[] = [];
      const previewMs: number[] = [];
      const applyMs: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const changed = changeFiles(round);
        settle();
        const statusStart = performance.now();
        git(['status', '--porcelain']);
        statusAnchor.push(performance.now() - statusStart);
        settle();
        const gitStart = performance.now();
        git(['checkout', '--', ...changed]);
        anchor.push(performance.now() - gitStart);
        changeFiles(round);
        await new Promise((resolve) => setTimeout(resolve, 30));
        settle();
        const start = performance.now();
        const preview = await service.api['rewind.preview']({ nodeId });
        const previewed = performance.now();
        const outcome = await service.api['rewind.apply']({ nodeId, token: preview.token });
        ours.push(performance.now() - start);
        previewMs.push(previewed - start);
        applyMs.push(performance.now() - previewed);
        if (outcome.status !== 'applied') throw new Error(`Rewind stopped: ${JSON.stringify(outcome)}`);
        if (outcome.written.length !== CHANGED) throw new Error(`Rewind wrote ${outcome.written.length} files, expected ${CHANGED}`);
      }
      samples.push({ label, nodes, ours, anchor, statusAnchor, preview: previewMs, apply: applyMs, coldPreviewMs });
    } finally {
      await service.close();
    }
  }
  return samples;
}
