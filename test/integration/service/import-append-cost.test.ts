/**
 * Re-importing after lines were appended costs the lines added, not the session's size: the rows the store
 * writes for 100 appended lines (SQLite's total_changes(), every insert, update and delete) are about the
 * same for a session of 400 lines and one of 6,000. Counted, not timed: the machine is shared.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { importSessions } from '../../../electron/service/import-sessions';

const APPENDED = 100;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-append-cost-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Rows the store changed while importing the last APPENDED of the session's first `lines` lines. */
async function rowsWrittenByAppend(name: string, lines: readonly string[]): Promise<{ rows: number; nodesBefore: number }> {
  const projects = join(root, name, 'projects');
  const folder = join(projects, '-home-dev-projects-append');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.jsonl`);
  writeFileSync(file, lines.slice(0, -APPENDED).map((line) => `${line}\n`).join(''));
  const store = openSessionStore(join(root, name, 'arbor.sqlite'));
  try {
    await importSessions(store, transcriptReader, [projects], { jobId: 'first' });
    const nodesBefore = store.listSessions({}).sessions.reduce((sum, session) => sum + session.nodeCount, 0);
    appendFileSync(file, lines.slice(-APPENDED).map((line) => `${line}\n`).join(''));
    const changes = store.handles.write.prepare<[], { n: number }>('SELECT total_changes() AS n');
    const before = changes.get()?.n ?? 0;
    const appended = await importSessions(store, transcriptReader, [projects], { jobId: 'append' });
    expect(appended.sessions.reduce((sum, session) => sum + session.nodes, 0)).toBeGreaterThan(APPENDED / 2);
    return { rows: (changes.get()?.n ?? 0) - before, nodesBefore };
  } finally {
    store.close();
  }
}

it('regression: an append re-import wrote rows in proportion to the session, not to the lines appended', async () => {
  const all = [...syntheticSessionLines(6000, { seed: 21 })];
  const small = await rowsWrittenByAppend('small', all.slice(0, 400));
  const big = await rowsWrittenByAppend('big', all);
  expect(big.nodesBefore).toBeGreaterThan(small.nodesBefore * 10);
  expect(small.rows).toBeGreaterThan(APPENDED);
  // Some lines carry more rows than others (tool calls, results, records): the same order, never 10×.
  expect(big.rows).toBeLessThan(small.rows * 2 + 50);
});
