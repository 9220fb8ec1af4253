/**
 * Regression: search progress read over 100% after a delete. Deleting the newest session leaves the index's
 * watermark (a seq) above max(seq); the share indexed is clamped where it is read (search.ts), so every reader
 * (the search box's "indexed N%", `indexing`, `arbor search --json`) sees everything left as indexed, and a
 * later import's nodes as pending.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forgetSessions } from '../../../electron/db/session-delete';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-progress-delete-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function storeSession(session: string, nodes: number): string {
  const writer = store.beginFile(transcriptFile(`/t/${session}.jsonl`, { sessionHint: session }));
  const parsed = Array.from({ length: nodes }, (_, k) => parsedNode(`${session}-${k}`, k === 0 ? null : `${session}-${k - 1}`, { sessionSourceId: session }));
  for (const node of inOrder(parsed)) writer.node(node);
  writer.finish({ endOffset: 100, endLine: nodes });
  store.linkChangedSessions();
  return store.sessionOfFile(`/t/${session}.jsonl`)!;
}

const indexAll = () => {
  while (store.indexNextChunk(100) > 0);
};

it('search progress never reads over 100% after a delete of the newest session (the indexed watermark exceeded max(seq))', () => {
  storeSession('old', 5);
  const newest = storeSession('new', 7);
  indexAll();
  expect(forgetSessions(store.handles.write, [newest]).status).toBe('deleted');

  const after = store.indexProgress();
  expect(after.total).toBeGreaterThan(0);
  expect(after.indexed).toBe(after.total);
  expect(store.pendingIndexRows()).toBe(0);

  // A later import's nodes count as pending, and once indexed the share is whole again.
  storeSession('later', 3);
  const pending = store.indexProgress();
  expect(pending.indexed).toBeLessThan(pending.total);
  expect(store.pendingIndexRows()).toBe(3);
  indexAll();
  const done = store.indexProgress();
  expect(done.indexed).toBe(done.total);
});
