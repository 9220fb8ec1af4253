import Database from 'better-sqlite3';
const db = new Database(process.argv[2]!, { readonly: true });
db.pragma('cache_size = -32000');
const sessions = db.prepare('SELECT id FROM sessions').pluck().all() as string[];
for (const [name, sql] of [
  ['seq only', 'SELECT seq FROM nodes WHERE session_id = ?'],
  ['link cols', 'SELECT seq, id, file_id, line, parent_source_id, parent_id, logical_parent_source_id, spawned_by_tool_use_id, agent_id, kind, timestamp FROM nodes WHERE session_id = ? ORDER BY file_id, line'],
  ['link cols', 'SELECT seq, id, file_id, line, parent_source_id, parent_id, logical_parent_source_id, spawned_by_tool_use_id, agent_id, kind, timestamp FROM nodes WHERE session_id = ? ORDER BY file_id, line'],
  ['raw', 'SELECT seq, length(raw) FROM nodes WHERE session_id = ?'],
] as const) {
  const st = db.prepare(sql); const c = process.cpuUsage(); const t = performance.now(); let n = 0;
  for (const s of sessions) n += st.all(s).length;
  const u = process.cpuUsage(c);
  console.log(name, n, 'wall', (performance.now() - t).toFixed(0), 'user', (u.user / 1000).toFixed(0), 'sys', (u.system / 1000).toFixed(0));
}
