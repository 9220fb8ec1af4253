/**
 * Runs real `git merge-file -p` on many triples at once: the triples are written to a temp dir and
 * a few shell loops (one per core) run git on them, which is much faster than a spawn per case.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MergeStyle } from '../../../shared/merge';
import type { MergeTriple } from './triples';

export interface GitMergeOutput {
  readonly text: string;
  /** git's exit status: the number of conflicts (capped at 127). */
  readonly status: number;
}

export function gitAvailable(): boolean {
  return spawnSync('git', ['--version']).status === 0;
}

/** No user or system config (merge.conflictStyle would change the output); not inside a repo. */
function gitEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: home, GIT_CEILING_DIRECTORIES: home };
}

function runShell(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('sh', ['-c', script], { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise() : reject(new Error(`git batch exited with ${code}`))));
  });
}

/** Outputs of git for each triple and style, indexed like `triples`. */
export async function gitMergeAll(
  triples: readonly MergeTriple[],
  styles: readonly MergeStyle[],
  shards = 2,
): Promise<Map<MergeStyle, GitMergeOutput[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-merge-vs-git-'));
  try {
    triples.forEach((triple, i) => {
      const caseDir = join(dir, `shard${i % shards}`, String(i));
      mkdirSync(caseDir, { recursive: true });
      writeFileSync(join(caseDir, 'ours'), triple.ours);
      writeFileSync(join(caseDir, 'base'), triple.base);
      writeFileSync(join(caseDir, 'theirs'), triple.theirs);
    });
    const commands = styles
      .map((style) => {
        const flag = style === 'merge' ? '' : ` --${style}`;
        return `git merge-file -p${flag} ours base theirs > out.${style}; echo $? > status.${style}`;
      })
      .join('; ');
    const script = `for d in */; do cd "$d" && { ${commands}; }; cd ..; done`;
    const work: Promise<void>[] = [];
    for (let s = 0; s < Math.min(shards, triples.length); s++) work.push(runShell(script, join(dir, `shard${s}`), gitEnv(dir)));
    await Promise.all(work);
    const outputs = new Map<MergeStyle, GitMergeOutput[]>();
    for (const style of styles) {
      outputs.set(
        style,
        triples.map((_, i) => {
          const caseDir = join(dir, `shard${i % shards}`, String(i));
          return {
            text: readFileSync(join(caseDir, `out.${style}`), 'utf8'),
            status: Number(readFileSync(join(caseDir, `status.${style}`), 'utf8').trim()),
          };
        }),
      );
    }
    return outputs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One way of calling git merge-file -p: its extra options, and what mergeText is given for them. */
export interface MergeVariant {
  readonly name: string;
  readonly args: readonly string[];
}

/**
 * git's output and status for each triple under each variant, the files written and read back as
 * latin1 so any byte (CR alone, 0x80–0xff) round-trips. Indexed [variant][triple].
 */
export async function gitMergeVariants(triples: readonly MergeTriple[], variants: readonly MergeVariant[], shards = 2): Promise<GitMergeOutput[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-merge-variants-'));
  try {
    const caseDir = (i: number): string => join(dir, `shard${i % shards}`, String(i));
    triples.forEach((triple, i) => {
      mkdirSync(caseDir(i), { recursive: true });
      writeFileSync(join(caseDir(i), 'ours'), triple.ours, 'latin1');
      writeFileSync(join(caseDir(i), 'base'), triple.base, 'latin1');
      writeFileSync(join(caseDir(i), 'theirs'), triple.theirs, 'latin1');
    });
    const commands = variants.map((variant, v) => `git merge-file -p ${variant.args.join(' ')} ours base theirs > out.${v}; echo $? > status.${v}`).join('; ');
    const script = `for d in */; do cd "$d" && { ${commands}; }; cd ..; done`;
    const work: Promise<void>[] = [];
    for (let s = 0; s < Math.min(shards, triples.length); s++) work.push(runShell(script, join(dir, `shard${s}`), gitEnv(dir)));
    await Promise.all(work);
    return variants.map((_, v) =>
      triples.map((_, i) => ({
        text: readFileSync(join(caseDir(i), `out.${v}`), 'latin1'),
        status: Number(readFileSync(join(caseDir(i), `status.${v}`), 'utf8').trim()),
      })),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
