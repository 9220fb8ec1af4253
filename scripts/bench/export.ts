/**
 * `arbor export` of one long generated session (default 50k nodes), its peak memory and time measured from
 * outside the process (/usr/bin/time -v), beside an anchor measured the same way in the same run: `arbor show
 * --json` of the same session, which holds its whole graph (every node's summary) and prints it.
 * Usage: npx tsx scripts/bench/export.ts [--nodes N] [--format md|html|json]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeProjectDir, syntheticSessionLines } from '../../electron/demo/synthetic';

const ROOT = resolve(__dirname, '../..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1]! : fallback;
};
const NODES = Number(option('nodes', '50000'));
const FORMAT = option('format', 'html');

function measured(args: string[], env: NodeJS.ProcessEnv): { seconds: number; peakMb: number; stdoutBytes: number; stderr: string } {
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, join(ROOT, 'bin', 'arbor.cjs'), ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`arbor ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  return { seconds, peakMb: peak ? Number(peak[1]) / 1024 : NaN, stdoutBytes: Buffer.byteLength(result.stdout), stderr: result.stderr };
}

const root = mkdtempSync(join(tmpdir(), 'arbor-bench-export-'));
try {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.cjs')], { cwd: ROOT, stdio: 'inherit' });
  const home = join(root, 'home');
  const sessionId = `bench-export-${NODES}`;
  const project = join(home, '.claude', 'projects', encodeProjectDir('/home/dev/bench'));
  mkdirSync(project, { recursive: true });
  const lines = [...syntheticSessionLines(NODES, { seed: 15, sessionId, cwd: '/home/dev/bench' })];
  writeFileSync(join(project, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') };
  const data = ['--data-dir', join(root, 'data')];
  const imported = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin', 'arbor.cjs'), 'import', project, '--json', ...data], { env, encoding: 'utf8' })) as { sessions: { id: string; nodes: number }[] };
  if (imported.sessions.length !== 1) throw new Error(`expected one session imported, got ${JSON.stringify(imported.sessions)}`);
  console.log(`export bench: ${lines.length} lines, ${imported.sessions[0]!.nodes} nodes imported, format ${FORMAT}`);
  const id = imported.sessions[0]!.id;
  const anchor = measured(['show', id, '--json', ...data], env);
  const out = join(root, `export.${FORMAT}`);
  const run = measured(['export', id, '--format', FORMAT, '--out', out, ...data], env);
  console.log(`  anchor  arbor show --json: ${anchor.seconds.toFixed(2)} s, peak RSS ${anchor.peakMb.toFixed(0)} MB (printed ${(anchor.stdoutBytes / 1e6).toFixed(1)} MB)`);
  console.log(`  arbor export --format ${FORMAT}: ${run.seconds.toFixed(2)} s, peak RSS ${run.peakMb.toFixed(0)} MB (wrote ${(statSync(out).size / 1e6).toFixed(1)} MB)`);
  console.log(`  ratio export/anchor: time ${(run.seconds / anchor.seconds).toFixed(2)}, peak RSS ${(run.peakMb / anchor.peakMb).toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
