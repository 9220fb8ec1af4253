/**
 * A session's side-effect ledger reads its graph a page at a time (electron/service/ledger-methods.ts), never the
 * whole graph, and says exactly what the ledger over the whole graph says: over a session of several pages with
 * a rewind, a forked run that went on, and Arbor's snapshot, fork and merge nodes, the pushes repeated on both
 * branches flagged the same way.
 */
import { describe, expect, it } from 'vitest';
import { createForkRecords } from '../../../electron/db/fork-records';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { createLedgerMethods } from '../../../electron/service/ledger-methods';
import { createSessionGraphs } from '../../../electron/service/session-graphs';
import { GRAPH_PAGE_NODES } from '../../../shared/session-graph-chunks';
import { parsedNode, storeParsedFile } from '../db/parsed-fixtures';
import { useStoreWorkspace } from '../service/store-workspace';

const fixture = useStoreWorkspace('arbor-ledger-pages-');

const at = (k: number): string => new Date(Date.UTC(2026, 0, 5, 9) + k * 1000).toISOString();

/** Turns of a prompt, a call (every 50th a `git push`, the rest a Read), its result and an answer. */
function turns(prefix: string, count: number, parent: string | null, from = 0): ParsedNode[] {
  const nodes: ParsedNode[] = [];
  for (let k = from; k < from + count; k++) {
    const id = `${prefix}${k}`;
    // Reads are local steps: the ledger reads no line for them.
    const [name, input] = k % 50 === 0 ? ['Bash', { command: 'git push origin main' }] : ['Read', { file_path: '/w/a.txt' }];
    const call = Buffer.from(JSON.stringify({ type: 'assistant', uuid: `${id}-c`, parentUuid: `${id}-u`, message: { role: 'assistant', content: [{ type: 'tool_use', id: `tu-${id}`, name, input }] } }));
    nodes.push(parsedNode(`${id}-u`, parent, { kind: 'user', timestamp: at(k * 4) }));
    nodes.push(parsedNode(`${id}-c`, `${id}-u`, { kind: 'tool_call', timestamp: at(k * 4 + 1), toolUses: [{ id: `tu-${id}`, name }], raw: call, rawBytes: call.length }));
    // Every 100th push has no result (it may have run): the next push on its path is a possible double effect.
    const answered = k % 100 !== 50;
    if (answered) nodes.push(parsedNode(`${id}-r`, `${id}-c`, { kind: 'tool_result', timestamp: at(k * 4 + 2), toolResults: [{ toolUseId: `tu-${id}`, isError: k % 150 === 0 }] }));
    nodes.push(parsedNode(`${id}-a`, answered ? `${id}-r` : `${id}-c`, { timestamp: at(k * 4 + 3) }));
    parent = `${id}-a`;
  }
  return nodes;
}

const importFile = (path: string, nodes: readonly ParsedNode[]): void => storeParsedFile(fixture.store, path, nodes, 'S1');

describe('the ledger of a session in pages', () => {
  it('never reads the whole graph and equals the ledger over it (a rewind, a continued fork, Arbor nodes)', async () => {
    importFile('/t/main.jsonl', [...turns('t', Math.ceil(GRAPH_PAGE_NODES / 4) + 200, null), ...turns('rewound', 120, 't10-a', 100)]);
    importFile('/t/fork.jsonl', turns('f', 60, 't20-a', 200));
    const { store } = fixture;
    const snapshot = { sessionId: 'S1', dir: '/w', treeOid: 'a'.repeat(40), commitOid: null, files: 1, createdAt: '2026-03-01T12:00:00.000Z' };
    createForkRecords(store.handles).add(
      { id: 'fork1', nodeId: 't20-a', sessionId: 'S1', branchNodeId: 'snapshot-fork1', dir: '/w-fork', dirCreated: true, resumeSessionId: null, transcript: '/t/fork.jsonl', createdAt: snapshot.createdAt },
      { ...snapshot, id: 'fork1', nodeId: 'snapshot-fork1', parentId: 't20-a', kind: 'fork' },
    );
    store.recordSnapshot({ ...snapshot, id: 's1', nodeId: 'snapshot-s1', parentId: 't30-a' });
    store.recordSnapshot({ ...snapshot, id: 'm1', nodeId: 'snapshot-m1', parentId: 't40-a', kind: 'merge', secondParentId: 'f230-a' });

    for (const sessionLines of [false, true]) {
      if (sessionLines) store.recordSnapshot({ ...snapshot, id: 's2', nodeId: 'snapshot-s2', parentId: 't4000-a' });
      const graphs = createSessionGraphs(fixture.workspace);
      const whole = await createLedgerMethods({ graph: graphs['sessions.graph'], store })['effects.ledger']({ target: 'S1' });
      let wholeReads = 0;
      const paged = createLedgerMethods({
        graph: async (request, context) => {
          wholeReads++;
          return graphs['sessions.graph'](request, context);
        },
        inPages: graphs.graphInPages,
        store,
      });
      expect(await paged['effects.ledger']({ target: 'S1' })).toEqual(whole);
      expect(await paged['effects.ledger']({ target: 'S1', since: 't3000-a' })).toEqual(await createLedgerMethods({ graph: graphs['sessions.graph'], store })['effects.ledger']({ target: 'S1', since: 't3000-a' }));
      expect(wholeReads).toBe(0);
      // What is compared is a ledger: pushes on the main line, the rewound branch and the fork, some of them replays.
      expect(whole.entries.length).toBeGreaterThan(80);
      expect(whole.replays).toBeGreaterThan(0);
      expect(new Set(whole.entries.map((entry) => entry.nodeId.replace(/\d.*/, '')))).toEqual(new Set(['t', 'rewound', 'f']));
    }
  });
});
