import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { discoverClaudeTranscripts, parseClaudeTranscript } from '../../electron/importers/claude-code';
import { openSessionStore } from '../../electron/db/session-store';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../../electron/importers/transcript';
async function main() {
  const root = process.argv[2]!;
  const { files } = await discoverClaudeTranscripts([join(root, 'projects')]);
  const data: { f: TranscriptFile; nodes: ParsedNode[]; records: ParsedRecord[] }[] = [];
  let calls = 0, results = 0;
  for (const f of files) {
    const nodes: ParsedNode[] = []; const records: ParsedRecord[] = [];
    await parseClaudeTranscript(f, { node: (n) => { nodes.push(n); calls += n.toolUses.length; results += n.toolResults.length; }, record: (r) => records.push(r), problem: () => {} }, { startOffset: 0, startLine: 1 });
    data.push({ f, nodes, records });
  }
  console.log('calls', calls, 'results', results, 'records', data.reduce((s, d) => s + d.records.length, 0));
  const session = new Session(); session.connect();
  for (let round = 0; round < 2; round++) {
    const store = openSessionStore(join(root, `s${Date.now()}.sqlite`));
    store.setBulkMode(true);
    
    const c = process.cpuUsage(); const t = performance.now();
    for (const d of data) { const w = store.beginFile(d.f); for (const n of d.nodes) w.node(n); for (const r of d.records) w.record(r); w.finish({ endOffset: 1, endLine: 1 }); }
    const u = process.cpuUsage(c);
    console.log('store wall', (performance.now() - t).toFixed(0), 'user', (u.user / 1000).toFixed(0), 'sys', (u.system / 1000).toFixed(0));
    if (round === 1) { await session.post('Profiler.enable'); await session.post('Profiler.start'); }
    const c2 = process.cpuUsage();
    store.linkChangedSessions();
    const u2 = process.cpuUsage(c2);
    console.log((globalThis as any).T); (globalThis as any).T = {};
    console.log('link cpu', ((u2.user + u2.system) / 1000).toFixed(0));
    if (round === 1) { const { profile } = await session.post('Profiler.stop'); writeFileSync('/tmp/arbor-store-prof/store.cpuprofile', JSON.stringify(profile)); }
    store.setBulkMode(false);
    store.close();
  }
}
main();
