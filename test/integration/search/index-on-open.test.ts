/**
 * Rows the full-text index does not hold yet when the service opens the store (an indexing run stopped mid-way, or
 * an index a migration builds again, as 043 does) are indexed in the background at once, not at the next import.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore } from '../../../electron/db/session-store';
import { createArborService } from '../../../electron/service/arbor-service';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-index-on-open-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

it('regression: a store opened with rows not yet indexed searched nothing until the next import; the service indexes them on open', async () => {
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const store = openSessionStore(join(dataDir, 'arbor.sqlite'));
  const writer = store.beginFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }));
  for (const node of inOrder([parsedNode('a1', null, { text: 'deploy the parser' }), parsedNode('a2', 'a1', { text: 'parser deployed' })])) writer.node(node);
  writer.finish({ endOffset: 100, endLine: 3 });
  store.linkChangedSessions();
  expect(store.pendingIndexRows()).toBe(2);
  store.close();

  const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
  try {
    await service.idle();
    const found = await service.api['search.query']({ query: 'parser', limit: 10 });
    expect(found.hits.map((hit) => hit.nodeId).sort()).toEqual(['a1', 'a2']);
    expect(found.indexing).toBe(false);
  } finally {
    await service.close();
  }
});
