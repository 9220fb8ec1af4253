import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/model';
import { prompt, reply, toolCall, toolResult, writeTranscript } from './claude-lines';
import { type Harness, openHarness } from './service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const sessionFile = (id: string) => join(h.projects, '-repo', `${id}.jsonl`);

describe('nodes.get', () => {
  it('returns content blocks and tool calls joined with their results and timing', async () => {
    writeTranscript(sessionFile('S1'), [
      prompt('u1', null, 'read a.py', 'S1', 0),
      toolCall('a1', 'u1', 'toolu_1', 'Read', { file_path: '/repo/a.py' }, 'S1', 2),
      toolResult('r1', 'a1', 'toolu_1', 'print("hi")', { at: 5 }),
    ]);
    await h.service.api['import.run']({ paths: [h.projects] });
    const call = await h.service.api['nodes.get']({ nodeId: 'a1' });
    expect(call.node).toMatchObject({ id: 'a1', kind: 'tool_call', parentId: 'u1', toolCalls: [{ id: 'toolu_1', name: 'Read', outcome: 'ok' }] });
    expect(call.blocks).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/a.py' } }]);
    expect(call.toolCalls).toEqual([
      {
        id: 'toolu_1',
        name: 'Read',
        outcome: 'ok',
        input: { file_path: '/repo/a.py' },
        resultNodeId: 'r1',
        resultText: 'print("hi")',
        durationMs: 3000,
      },
    ]);
    expect(call).toMatchObject({ cwd: '/repo', gitBranch: 'main', version: '2.1.39', file: sessionFile('S1'), line: 2, rawTruncatedAt: null });
    expect(JSON.parse(call.raw)).toMatchObject({ uuid: 'a1' });
  });
});

describe('search.query', () => {
  it('finds node text after background indexing, with marked snippets, and survives hostile queries', async () => {
    writeTranscript(sessionFile('S1'), [
      prompt('u1', null, 'please refactor the tokenizer module'),
      reply('a1', 'u1', 'I refactored "tokenizer" AND its tests'),
    ]);
    await h.service.api['import.run']({ paths: [h.projects] });
    await h.service.idle();
    expect(h.events['index.progress'].at(-1)).toEqual({ done: 2, total: 2 });
    const result = await h.service.api['search.query']({ query: 'tokeni' });
    expect(result.indexing).toBe(false);
    expect(result.hits.map((hit) => hit.nodeId).sort()).toEqual(['a1', 'u1']);
    expect(result.hits[0]).toMatchObject({ sessionId: 'S1', sessionTitle: 'please refactor the tokenizer module' });
    expect(result.hits[0]?.snippet).toContain(`${SNIPPET_OPEN}tokenizer${SNIPPET_CLOSE}`);
    const hostile = ['"', '*', 'AND', 'OR', 'NOT', 'NEAR(a, b)', '"unbalanced', 'x"y', '(', ')', '-', '^x', 'col:tok', "'; DROP TABLE nodes; --", '\\', '""', '* * *'];
    for (const query of hostile) {
      await expect(h.service.api['search.query']({ query })).resolves.toMatchObject({ indexing: false });
    }
    expect((await h.service.api['search.query']({ query: '"tokenizer' })).hits).toHaveLength(2);
    expect((await h.service.api['search.query']({ query: 'AND' })).hits.map((hit) => hit.nodeId)).toEqual(['a1']);
    expect((await h.service.api['search.query']({ query: 'refactor zebra' })).hits).toEqual([]);
  });

  it('says indexing while the index is behind the import, and never answers nothing without saying so', async () => {
    writeTranscript(sessionFile('S1'), [prompt('u1', null, 'something to index')]);
    let during: Promise<{ indexing: boolean }> | null = null;
    // Asked when the import announces its sessions, before the background indexer has started.
    const stop = h.service.events.on('sessions.changed', () => {
      during = h.service.api['search.query']({ query: 'something' });
    });
    await h.service.api['import.run']({ paths: [h.projects] });
    stop();
    // The index is built in the write worker, which may have caught up by the time this thread asks: either way
    // a search never answers "nothing" without saying it is still indexing (index-in-worker.test.ts holds it behind).
    const answer = (await during) as unknown as { indexing: boolean; hits: { nodeId: string }[] };
    if (answer.indexing) expect(answer.hits).toEqual([]);
    else expect(answer.hits.map((hit) => hit.nodeId)).toEqual(['u1']);
    await h.service.idle();
    expect(await h.service.api['search.query']({ query: 'something' })).toMatchObject({ indexing: false, hits: [{ nodeId: 'u1' }] });
  });
});

describe('app and locations', () => {
  it('reports app info and the default Claude Code and Codex locations with an exists flag', async () => {
    const info = await h.service.api['app.info']({});
    expect(info).toMatchObject({ version: '0.0.0-test', dataDir: join(h.root, 'data'), host: 'web' });
    const before = await h.service.api['import.locations']({});
    expect(before.locations).toEqual([
      { format: 'claude-code', path: join(h.root, 'home', '.claude', 'projects'), exists: false },
      { format: 'codex', path: join(h.root, 'home', '.codex', 'sessions'), exists: false },
      { format: 'codex', path: join(h.root, 'home', '.codex', 'archived_sessions'), exists: false },
    ]);
    mkdirSync(join(h.root, 'home', '.claude', 'projects'), { recursive: true });
    const after = await h.service.api['import.locations']({});
    expect(after.locations[0]?.exists).toBe(true);
  });

  it('imports the default location when no paths are given', async () => {
    writeTranscript(join(h.root, 'home', '.claude', 'projects', '-repo', 'S9.jsonl'), [prompt('u9', null, 'from home', 'S9')]);
    const report = await h.service.api['import.run']({});
    expect(report.sessions.map((session) => session.id)).toEqual(['S9']);
  });
});

describe('demo.create', () => {
  it('writes the demo into the data folder, imports it and returns its session', async () => {
    const demo = await h.service.api['demo.create']({});
    expect(demo.dir.startsWith(join(h.root, 'data', 'demo-'))).toBe(true);
    const graph = await h.service.api['sessions.graph']({ sessionId: demo.sessionId });
    expect(graph.nodes.length).toBeGreaterThan(3);
    expect(graph.session.id).toBe(demo.sessionId);
  });
});
