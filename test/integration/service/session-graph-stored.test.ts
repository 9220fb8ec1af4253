/**
 * sessions.graph from the stored graph (migration 022) is the graph built from the rows, whatever changed the
 * session: an import, an append, a fork (its copies renamed, its lineage link), a snapshot or a merge node
 * Arbor added, a new title. sessions.graphPage sends the same graph in pages, and a session that changes
 * between two pages is seen by the version (the client reads it again).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { importSessions } from '../../../electron/service/import-sessions';
import { createSessionGraphs } from '../../../electron/service/session-graphs';
import { readGraphPages } from '../../../renderer/src/client/session-graph-pages';
import type { SessionGraph } from '../../../shared/model';
import { assembleSessionGraphChunks, type SessionGraphChunk, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import { decodeSessionGraph } from '../../../shared/session-graph-wire';
import { appendLines, builder, editTurn, random, talkTurn, writeLines } from '../import/lineage-fixtures';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';
import { useStoreWorkspace } from './store-workspace';

const PARENT = '3a000000-0000-4000-8000-00000000003a';
const FORK = '4b000000-0000-4000-8000-00000000004b';

const fixture = useStoreWorkspace('arbor-graph-stored-');

/** A fresh service each time (no cache): the stored path, and the rows path (pageRows set reads rows). */
async function bothGraphs(sessionId: string): Promise<{ stored: SessionGraph; rows: SessionGraph; paged: SessionGraph }> {
  const stored = await createSessionGraphs(fixture.workspace)['sessions.graph']({ sessionId });
  const rows = await createSessionGraphs(fixture.workspace, { pageRows: 8192 })['sessions.graph']({ sessionId });
  const graphs = createSessionGraphs(fixture.workspace);
  const paged = (await readGraphPages((method, request) => graphs[method as 'sessions.graphPage'](request as never) as never, sessionId))!;
  return { stored, rows, paged };
}

async function expectSame(sessionId: string): Promise<SessionGraph> {
  const { stored, rows, paged } = await bothGraphs(sessionId);
  expect(stored).toEqual(rows);
  expect(paged).toEqual(rows);
  return rows;
}

describe('the stored graph behind sessions.graph', () => {
  it('equals the rows after an import, an append, a fork with renamed copies, a snapshot, a merge node and a new title', async () => {
    const r = random(41);
    const projects = join(fixture.dir, 'projects');
    const parent = builder(r, PARENT);
    const first = editTurn(parent, 'create a.txt', 'a.txt', 'one\n');
    talkTurn(parent, 'and then?', 'then this');
    const parentLines = parent.take();
    const parentPath = join(projects, 'p', `${PARENT}.jsonl`);
    writeLines(parentPath, parentLines);
    await importSessions(fixture.store, transcriptReader, [projects], { jobId: 'a' });
    const imported = await expectSame(PARENT);
    expect(imported.nodes.length).toBeGreaterThan(4);

    // An append to the transcript.
    editTurn(parent, 'now b.txt', 'b.txt', 'bee\n');
    appendLines(parentPath, parent.take());
    await importSessions(fixture.store, transcriptReader, [projects], { jobId: 'b' });
    expect((await expectSame(PARENT)).nodes.length).toBeGreaterThan(imported.nodes.length);

    // A fork whose copied lines got new uuids (node_renames), continued: a lineage link between the two.
    const fork = builder(r, FORK, { startMinutes: 30 });
    fork.forkCopies(parentLines, PARENT, { newUuids: true });
    editTurn(fork, 'in the fork, create c.txt', 'c.txt', 'sea\n');
    writeLines(join(projects, 'p', `${FORK}.jsonl`), fork.take());
    await importSessions(fixture.store, transcriptReader, [projects], { jobId: 'c' });
    expect(fixture.store.lineageLinks().length).toBeGreaterThan(0);
    await expectSame(FORK);
    await expectSame(PARENT);

    // Arbor's nodes: a snapshot and a merge below the parent's first reply (page 0 carries the whole graph).
    const snapshot = { id: 's1', nodeId: 'snapshot-s1', sessionId: PARENT, parentId: first.reply, dir: '/w', treeOid: 'a'.repeat(40), commitOid: null, files: 1, createdAt: '2026-03-01T12:00:00.000Z' };
    fixture.store.recordSnapshot(snapshot);
    fixture.store.recordSnapshot({ ...snapshot, id: 'm1', nodeId: 'snapshot-m1', kind: 'merge', secondParentId: first.result, createdAt: '2026-03-01T12:01:00.000Z' });
    const withArbor = await expectSame(PARENT);
    expect(withArbor.workspaceNodes?.map((node) => node.kind)).toEqual(['snapshot', 'merge']);

    // A new title (a summary record names the session's newest turn).
    parent.summary('A retitled session', first.reply);
    appendLines(parentPath, parent.take());
    await importSessions(fixture.store, transcriptReader, [projects], { jobId: 'd' });
    expect((await expectSame(PARENT)).session.title).toBe(fixture.store.getSession(PARENT)!.title);
  });
});

describe('sessions.graphPage', () => {
  function bigChain(count: number, from = 0, parent: string | null = null): ParsedNode[] {
    const nodes: ParsedNode[] = [];
    for (let k = from; k < from + count; k++) {
      nodes.push(parsedNode(`n${k}`, parent, { kind: k % 2 === 0 ? 'user' : 'assistant', timestamp: `2026-01-05T09:00:00.${String(k % 1000).padStart(3, '0')}Z` }));
      parent = `n${k}`;
    }
    return nodes;
  }

  function importNodes(nodes: readonly ParsedNode[], startLine: number): void {
    const writer = fixture.store.beginFile(transcriptFile('/t/big.jsonl', { sessionHint: 'S1' }));
    for (const node of inOrder(nodes, startLine)) writer.node(node);
    writer.finish({ endOffset: 100 + startLine, endLine: startLine + nodes.length });
    fixture.store.linkChangedSessions();
  }

  it('sends a big session in pages of one version that assemble to sessions.graph, asked one by one or all at once', async () => {
    importNodes(bigChain(33_000), 1);
    const graphs = createSessionGraphs(fixture.workspace);
    const first = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 0 });
    expect(first.pages).toBe(3);
    expect(first.graph).toBeUndefined();
    const pages: SessionGraphPage[] = [first];
    for (let page = 1; page < first.pages; page++) pages.push(await graphs['sessions.graphPage']({ sessionId: 'S1', page }));
    expect(new Set(pages.map((page) => page.version))).toEqual(new Set([first.version]));
    const graph = decodeSessionGraph(assembleSessionGraphChunks(first.session!, pages.map((page) => JSON.parse(page.chunk) as SessionGraphChunk)));
    expect(graph).toEqual(await graphs['sessions.graph']({ sessionId: 'S1' }));
    expect(graph.nodes).toHaveLength(33_000);
    // Asked all at once (the renderer knows the count from the list), they read the same.
    expect(await readGraphPages((method, request) => graphs[method as 'sessions.graphPage'](request as never) as never, 'S1', undefined, 3)).toEqual(graph);

    // Arbor's snapshot joins the graph as a page of its own after the stored ones (arbor-node-pages.ts).
    fixture.store.recordSnapshot({ id: 's1', nodeId: 'snapshot-s1', sessionId: 'S1', parentId: 'n5', dir: '/w', treeOid: 'a'.repeat(40), commitOid: null, files: 1, createdAt: '2026-03-01T12:00:00.000Z' });
    const ahead = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 1 });
    expect(ahead.pages).toBe(4);
    expect(ahead.chunk).toBe(pages[1]!.chunk);
    expect((await readGraphPages((method, request) => graphs[method as 'sessions.graphPage'](request as never) as never, 'S1', undefined, 3))!.nodes).toHaveLength(33_001);
  });

  it('a session appended between two pages answers with another version, and the client reads it again', async () => {
    importNodes(bigChain(20_000), 1);
    const graphs = createSessionGraphs(fixture.workspace);
    const first = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 0 });
    importNodes(bigChain(10, 20_000, 'n19999'), 20_001);
    const second = await graphs['sessions.graphPage']({ sessionId: 'S1', page: 1 });
    expect(second.version).not.toBe(first.version);

    let appended = false;
    const calls: number[] = [];
    const graph = await readGraphPages(async (method, request) => {
      const page = (request as { page: number }).page;
      calls.push(page);
      // The append lands after the first page 0 was answered, before its page 1.
      if (page === 1 && !appended) {
        appended = true;
        importNodes(bigChain(10, 20_010, 'n20009'), 20_011);
      }
      return graphs[method as 'sessions.graphPage'](request as never) as never;
    }, 'S1');
    expect(calls).toEqual([0, 1, 0, 1]);
    expect(graph!.nodes).toHaveLength(20_020);
    expect(graph).toEqual(await createSessionGraphs(fixture.workspace, { pageRows: 8192 })['sessions.graph']({ sessionId: 'S1' }));
  });
});
