import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../../../electron/importers/transcript';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/model';
import { inOrder, parsedNode, parsedRecord, transcriptFile } from './parsed-fixtures';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-store-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: TranscriptFile, nodes: readonly ParsedNode[], records: readonly ParsedRecord[] = []) {
  const writer = store.beginFile(file);
  for (const node of nodes) writer.node(node);
  for (const record of records) writer.record(record);
  const result = writer.finish({ endOffset: file.size, endLine: nodes.length + records.length + 1 });
  const link = store.linkChangedSessions();
  return { ...result, ...link };
}

describe('session store', () => {
  it('stores a chain and resolves parents in transcript order', () => {
    const result = importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([parsedNode('u1', null, { kind: 'user', label: 'fix the bug', cwd: '/repo', timestamp: '2025-01-01T00:00:00Z' }), parsedNode('a1', 'u1', { timestamp: '2025-01-01T00:01:00Z' })]),
    );
    expect(result).toMatchObject({ sessionId: 'S1', nodesAdded: 2, sessionIds: ['S1'], problems: [] });
    const session = store.getSession('S1');
    expect(session).toMatchObject({ title: 'fix the bug', project: '/repo', nodeCount: 2, fileCount: 1, branchCount: 0 });
    expect(session?.startedAt).toBe('2025-01-01T00:00:00Z');
    expect(session?.updatedAt).toBe('2025-01-01T00:01:00Z');
    const nodes = store.getSessionNodes('S1');
    expect(nodes.map((node) => [node.id, node.parentId])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
    ]);
  });

  it('keeps one node per uuid across files and groups the copy into the first session', () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('u1', null), parsedNode('a1', 'u1')]));
    const copy = importFile(
      transcriptFile('/t/b.jsonl', { sessionHint: 'S2' }),
      inOrder([parsedNode('u1', null, { sessionSourceId: 'S2' }), parsedNode('a1', 'u1', { sessionSourceId: 'S2' }), parsedNode('u2', 'a1', { sessionSourceId: 'S2' })]),
    );
    expect(copy).toMatchObject({ sessionId: 'S1', nodesAdded: 1 });
    expect(store.getSession('S2')).toBeNull();
    expect(store.getSessionNodes('S1').map((node) => node.id)).toEqual(['u1', 'a1', 'u2']);
    expect(store.getNode('u1')?.file).toBe('/t/a.jsonl');
    expect(store.getSession('S1')?.fileCount).toBe(2);
  });

  it('keeps dangling parents as parentSourceId with a null parentId', () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('u1', 'gone')]));
    const [node] = store.getSessionNodes('S1');
    expect(node).toMatchObject({ parentSourceId: 'gone', parentId: null });
  });

  it('resolves a parent that arrives in a later file', () => {
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('c', 'p')]));
    importFile(transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }), inOrder([parsedNode('p', null)]));
    expect(store.getNode('c')?.summary.parentId).toBe('p');
  });

  it('links what waits for a node that arrives later in the same batch or in a later batch of the file (waits are looked up once a batch)', () => {
    // The first batch is 500 lines: 'late' and 'l-late' land in the second, 'soon' and 'l-soon' in the first.
    const filler = Array.from({ length: 600 }, (_, index) => parsedNode(`n${index}`, index === 0 ? null : `n${index - 1}`));
    const nodes = [
      parsedNode('waits-soon', 'soon'),
      parsedNode('waits-late', 'late'),
      parsedNode('compacted-soon', null, { logicalParentSourceId: 'l-soon' }),
      parsedNode('compacted-late', null, { logicalParentSourceId: 'l-late' }),
      parsedNode('soon', null),
      parsedNode('l-soon', null),
      ...filler,
      parsedNode('late', null),
      parsedNode('l-late', null),
    ];
    importFile(transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }), inOrder(nodes));
    expect(store.getNode('waits-soon')?.summary.parentId).toBe('soon');
    expect(store.getNode('waits-late')?.summary.parentId).toBe('late');
    const edges = Object.fromEntries(store.getSessionNodes('S1').filter((node) => node.id.startsWith('compacted')).map((node) => [node.id, node.extraEdges]));
    expect(edges).toEqual({ 'compacted-soon': [{ kind: 'logical', nodeId: 'l-soon' }], 'compacted-late': [{ kind: 'logical', nodeId: 'l-late' }] });
  });

  it('breaks a parent cycle at its earliest node and reports it', () => {
    const result = importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([parsedNode('x', 'z'), parsedNode('y', 'x'), parsedNode('z', 'y'), parsedNode('w', 'z')]),
    );
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: '/t/a.jsonl', line: 1 });
    const parents = Object.fromEntries(store.getSessionNodes('S1').map((node) => [node.id, node.parentId]));
    expect(parents).toEqual({ x: null, y: 'x', z: 'y', w: 'z' });
  });

  it('pairs tool calls with results across files: ok, error, missing', () => {
    importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([
        parsedNode('a1', null, { kind: 'tool_call', toolUses: [{ id: 't-ok', name: 'Read' }, { id: 't-err', name: 'Edit' }, { id: 't-none', name: 'Bash' }] }),
        parsedNode('r1', 'a1', { kind: 'tool_result', toolResults: [{ toolUseId: 't-ok', isError: false }] }),
      ]),
    );
    importFile(
      transcriptFile('/t/b.jsonl', { sessionHint: 'S1' }),
      inOrder([parsedNode('r2', 'r1', { kind: 'error', toolResults: [{ toolUseId: 't-err', isError: true }] })]),
    );
    const call = store.getSessionNodes('S1').find((node) => node.id === 'a1');
    expect(call?.toolCalls).toEqual([
      { id: 't-ok', name: 'Read', outcome: 'ok' },
      { id: 't-err', name: 'Edit', outcome: 'error' },
      { id: 't-none', name: 'Bash', outcome: 'missing' },
    ]);
  });

  it('links a subagent file root to the call that spawned it and a compaction root to its logical parent', () => {
    importFile(
      transcriptFile('/t/S1.jsonl', { sessionHint: 'S1' }),
      inOrder([
        parsedNode('a1', null, { kind: 'tool_call', toolUses: [{ id: 'task-1', name: 'Task' }] }),
        parsedNode('r1', 'a1', { kind: 'tool_result', toolResults: [{ toolUseId: 'task-1', isError: false }], spawnedAgentId: 'ab12' }),
        parsedNode('cb', null, { kind: 'compaction', logicalParentSourceId: 'r1' }),
      ]),
    );
    const sub = importFile(
      transcriptFile('/t/S1/subagents/agent-ab12.jsonl', { sessionHint: 'S1', role: 'subagent', agentId: 'ab12' }),
      inOrder([parsedNode('s1', null, { sidechain: true, agentId: 'ab12' }), parsedNode('s2', 's1', { sidechain: true })]),
    );
    expect(sub.sessionId).toBe('S1');
    const nodes = new Map(store.getSessionNodes('S1').map((node) => [node.id, node]));
    expect(nodes.get('s1')?.extraEdges).toEqual([{ kind: 'subagent', nodeId: 'a1' }]);
    expect(nodes.get('s2')?.extraEdges).toEqual([]);
    expect(nodes.get('cb')?.extraEdges).toEqual([{ kind: 'logical', nodeId: 'r1' }]);
  });

  it('counts real branch points only: prompts at different times under one parent', () => {
    importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([
        parsedNode('p', null),
        parsedNode('u1', 'p', { kind: 'user', timestamp: '2025-01-01T00:00:00Z' }),
        parsedNode('u2', 'p', { kind: 'user', timestamp: '2025-01-01T00:30:00Z' }),
        parsedNode('q', null),
        parsedNode('v1', 'q', { kind: 'user', timestamp: '2025-01-01T01:00:00Z' }),
        parsedNode('v2', 'q', { kind: 'user', timestamp: '2025-01-01T01:00:00Z' }),
        parsedNode('t1', 'q', { kind: 'tool_result', timestamp: '2025-01-01T02:00:00Z' }),
      ]),
    );
    expect(store.getSession('S1')?.branchCount).toBe(1);
  });

  it('titles a session from a summary record pointing at one of its nodes and attaches records', () => {
    importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([parsedNode('u1', null, { kind: 'user', label: 'first prompt' })]),
      [parsedRecord('summary', 'u1', { summary: 'Fix bug in a.py', line: 5, offset: 5000 }), parsedRecord('queue-operation', null, { line: 6, offset: 6000 })],
    );
    expect(store.getSession('S1')?.title).toBe('Fix bug in a.py');
    expect(store.getRecords('u1').map((record) => [record.type, record.line])).toEqual([
      ['summary', 5],
      ['queue-operation', 6],
    ]);
  });

  it('titles a session with no typed prompt by its first readable step, not its id (away_summary)', () => {
    importFile(
      transcriptFile('/t/away.jsonl', { sessionHint: 'S1' }),
      inOrder([
        parsedNode('p1', null, { kind: 'progress', label: 'Hook SessionStart' }),
        parsedNode('s1', 'p1', { kind: 'system', label: "We're adding a project-level layout" }),
      ]),
    );
    expect(store.getSession('S1')?.title).toBe("We're adding a project-level layout");
  });

  it('titles a session with no typed prompt by its first answer even after many recaps, through the session order without a sort', () => {
    // 45 recaps before the first answer: answers still come first; the recaps fill in only when answers are short.
    const recaps = (session: string) =>
      Array.from({ length: 45 }, (_, k) => parsedNode(`${session}-s${k}`, k === 0 ? null : `${session}-s${k - 1}`, { kind: 'system', label: `Recap ${k}`, sessionSourceId: session }));
    importFile(
      transcriptFile('/t/recaps.jsonl', { sessionHint: 'S1' }),
      inOrder([...recaps('S1'), parsedNode('a1', 'S1-s44', { kind: 'assistant', label: 'The first answer' })]),
    );
    expect(store.getSession('S1')?.title).toBe('The first answer');
    importFile(transcriptFile('/t/recaps-only.jsonl', { sessionHint: 'S2' }), inOrder(recaps('S2')));
    expect(store.getSession('S2')?.title).toBe('Recap 0');
    for (const kind of ['assistant', 'system']) {
      const plan = (store.handles.read
        .prepare(`EXPLAIN QUERY PLAN SELECT label FROM nodes WHERE session_id = ? AND kind = '${kind}' AND label != '' ORDER BY file_id, line LIMIT 40`)
        .all('S1') as { detail: string }[]).map((row) => row.detail).join('\n');
      expect(plan).toContain('USING INDEX nodes_by_session (session_id=?)');
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });

  it('re-reading the same lines stores nothing twice', () => {
    const file = transcriptFile('/t/a.jsonl', { sessionHint: 'S1' });
    const nodes = inOrder([parsedNode('u1', null), parsedNode('a1', 'u1')]);
    const records = [parsedRecord('summary', 'u1', { summary: 'x', line: 3, offset: 3000 })];
    importFile(file, nodes, records);
    const again = importFile(file, nodes, records);
    expect(again.nodesAdded).toBe(0);
    expect(store.getRecords('u1')).toHaveLength(1);
    expect(store.fileState('/t/a.jsonl')).toMatchObject({ sessionId: 'S1', size: 100, endOffset: 100 });
  });

  it('indexes text in chunks and finds it with hostile queries', () => {
    importFile(
      transcriptFile('/t/a.jsonl', { sessionHint: 'S1' }),
      inOrder([
        parsedNode('u1', null, { kind: 'user', text: 'please refactor the parser module' }),
        parsedNode('a1', 'u1', { text: 'I will refactor "parser" AND tests' }),
        parsedNode('a2', 'a1', { text: '' }),
      ]),
    );
    expect(store.search('parser', 10)).toEqual([]);
    expect(store.pendingIndexRows()).toBe(3);
    let consumed = 0;
    for (let step = store.indexNextChunk(2); step > 0; step = store.indexNextChunk(2)) consumed += step;
    expect(consumed).toBe(3);
    expect(store.pendingIndexRows()).toBe(0);
    const hits = store.search('refac', 10);
    expect(hits.map((hit) => hit.nodeId).sort()).toEqual(['a1', 'u1']);
    expect(hits[0]?.snippet).toContain(`${SNIPPET_OPEN}refactor${SNIPPET_CLOSE}`);
    expect(hits[0]?.sessionTitle).toBe('label u1');
    for (const hostile of ['"', '*', 'AND', 'OR NOT', '"parser', 'parser"*', 'NEAR(a b)', '(', ')', '-x', 'a:b', '^', '\\', "'", '""""', 'col:parser']) {
      expect(() => store.search(hostile, 10)).not.toThrow();
    }
    expect(store.search('"parser', 10).map((hit) => hit.nodeId).sort()).toEqual(['a1', 'u1']);
    expect(store.search('AND', 10).map((hit) => hit.nodeId)).toEqual(['a1']);
  });
});
