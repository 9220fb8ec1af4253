/**
 * `arbor effects` (the side-effect ledger, computed on demand) of one long generated session (default 50k
 * nodes), time and peak memory measured from outside the process (/usr/bin/time -v), beside an anchor measured
 * the same way in the same run: `arbor show --json` of the same session (its whole graph, printed).
 * Usage: npx tsx scripts/bench/ledger.ts [--nodes N]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodeProjectDir, syntheticSessionLines } from '../../electron/demo/synthetic';

const ROOT = resolve(__dirname, '../..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--nodes');
const NODES = Number(at >= 0 ? argv[at + 1] : '50000');

function measured(args: string[], env: NodeJS.ProcessEnv): { seconds: number; peakMb: number; stdout: string } {
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, join(ROOT, 'bin', 'arbor.cjs'), ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`arbor ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  return { seconds, peakMb: peak ? Number(peak[1]) / 1024 : NaN, stdout: result.stdout };
}

const root = mkdtempSync(join(tmpdir(), 'arbor-bench-ledger-'));
try {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.cjs')], { cwd: ROOT, stdio: 'inherit' });
  const home = join(root, 'home');
  const sessionId = `bench-ledger-${NODES}`;
  const project = join(home, '.claude', 'projects', encodeProjectDir('/home/dev/bench'));
  mkdirSync(project, { recursive: true });
  const lines = [...syntheticSessionLines(NODES, { seed: 15, sessionId, cwd: '/home/dev/bench' })];
  writeFileSync(join(project, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') };
  const data = ['--data-dir', join(root, 'data')];
  const imported = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin', 'arbor.cjs'), 'import', project, '--json', ...data], { env, encoding: 'utf8' })) as { sessions: { id: string; nodes: number }[] };
  const id = imported.sessions[0]!.id;
  console.log(`ledger bench: ${imported.sessions[0]!.nodes} nodes imported (load ${loadavg().map((n) => n.toFixed(2)).join(' ')})`);
  const anchor = measured(['show', id, '--json', ...data], env);
  const run = measured(['effects', id, '--json', ...data], env);
  const ledger = JSON.parse(run.stdout) as { entries: unknown[]; replays: number; unrecorded: number };
  console.log(`  anchor  arbor show --json: ${anchor.seconds.toFixed(2)} s, peak RSS ${anchor.peakMb.toFixed(0)} MB`);
  console.log(`  arbor effects --json: ${run.seconds.toFixed(2)} s, peak RSS ${run.peakMb.toFixed(0)} MB (${ledger.entries.length} entries, ${ledger.replays} replays, ${ledger.unrecorded} unrecorded)`);
  console.log(`  ratio effects/anchor: time ${(run.seconds / anchor.seconds).toFixed(2)}, peak RSS ${(run.peakMb / anchor.peakMb).toFixed(2)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
