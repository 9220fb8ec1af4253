// TEMPORARY profiling script (graph-load helper); delete before handing back.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSessionStore } from '../../electron/db/session-store';

const repoRoot = resolve(__dirname, '../..');
const work = '/tmp/gprof/work';
async function main() {
  const dataDir = join(work, 'data');
  if (!existsSync(dataDir)) {
    const { syntheticSessionLines } = await import('../../electron/demo/synthetic');
    const project = join(work, 'projects', '-home-dev-bench');
    mkdirSync(project, { recursive: true });
    const sessionId = '0b7c1d2e-0000-4000-8000-000000010000';
    writeFileSync(join(project, `${sessionId}.jsonl`), [...syntheticSessionLines(10_000, { seed: 10, sessionId })].join('\n') + '\n');
    execFileSync(process.execPath, [join(repoRoot, 'bin/arbor.cjs'), 'import', join(work, 'projects'), '--data-dir', dataDir], { stdio: 'inherit' });
  }
  const store = openSessionStore(join(dataDir, 'arbor.sqlite'));
  const sid = store.listSessions({}).sessions[0]!.id;
  for (let k = 0; k < 5; k++) {
    let t = performance.now();
    const s = store.getSession(sid)!;
    const nodes = store.getSessionNodes(sid);
    const sql = performance.now() - t;
    t = performance.now();
    const text = JSON.stringify({ t: 'res', id: 1, ok: true, result: { session: s, nodes } });
    const ser = performance.now() - t;
    t = performance.now();
    JSON.parse(text);
    const parse = performance.now() - t;
    console.log(`nodes ${nodes.length} getSessionNodes ${sql.toFixed(1)} ms, stringify ${ser.toFixed(1)} ms (${(text.length / 1e6).toFixed(2)} MB), parse ${parse.toFixed(1)} ms`);
  }
  store.close();
}
void main();
