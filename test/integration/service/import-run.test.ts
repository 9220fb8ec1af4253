import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { toErrorData } from '../../../shared/errors';
import { appendTranscript, compactBoundary, jsonl, prompt, reply, summary, toolCall, toolResult, writeTranscript } from './claude-lines';
import { type Harness, openHarness } from './service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const sessionFile = (id: string) => join(h.projects, '-repo', `${id}.jsonl`);

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return toErrorData(error).code;
  }
  return 'no error';
}

describe('import.run', () => {
  it('imports a session: list, graph in transcript order, tool outcomes ok / error / missing', async () => {
    writeTranscript(sessionFile('S1'), [
      prompt('u1', null, 'fix the bug in a.py'),
      toolCall('a1', 'u1', 'toolu_ok', 'Read', { file_path: '/repo/a.py' }),
      toolResult('r1', 'a1', 'toolu_ok', 'file contents'),
      toolCall('a2', 'r1', 'toolu_err', 'Edit', { file_path: '/repo/a.py' }),
      toolResult('r2', 'a2', 'toolu_err', 'String to replace not found', { isError: true }),
      toolCall('a3', 'r2', 'toolu_none', 'Bash', { command: 'ls' }),
    ]);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.sessions).toEqual([{ id: 'S1', source: 'claude-code', files: 1, nodes: 6 }]);
    expect(report.problems).toEqual([]);
    expect(h.events['sessions.changed']).toEqual([{ sessionIds: ['S1'] }]);
    const last = h.events['import.progress'].at(-1);
    expect(last).toMatchObject({ phase: 'done', filesDone: 1, filesTotal: 1 });
    expect(last?.bytesDone).toBe(statSync(sessionFile('S1')).size);

    const list = await h.service.api['sessions.list']({});
    expect(list.total).toBe(1);
    expect(list.sessions[0]).toMatchObject({ id: 'S1', title: 'fix the bug in a.py', project: '/repo', nodeCount: 6 });
    const graph = await h.service.api['sessions.graph']({ sessionId: 'S1' });
    expect(graph.nodes.map((node) => node.id)).toEqual(['u1', 'a1', 'r1', 'a2', 'r2', 'a3']);
    const outcomes = graph.nodes.flatMap((node) => node.toolCalls.map((call) => [call.id, call.outcome]));
    expect(outcomes).toEqual([
      ['toolu_ok', 'ok'],
      ['toolu_err', 'error'],
      ['toolu_none', 'missing'],
    ]);
  });

  it('regression: the first import announced its sessions only when it ended; sessions.changed names the first session while the rest are importing', async () => {
    for (let index = 0; index < 3; index++) writeTranscript(sessionFile(`S${index}`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
    let ended = false;
    const heard: { sessionIds: string[]; listed: number; ended: boolean }[] = [];
    const stop = h.service.events.on('sessions.changed', ({ sessionIds }) => {
      // sessions.list reads the store before its first await: what a renderer asking now would get.
      void h.service.api['sessions.list']({}).then((list) => heard.push({ sessionIds, listed: list.total, ended }));
    });
    await h.service.api['import.run']({ paths: [h.projects] }).finally(() => (ended = true));
    stop();
    await Promise.resolve();
    expect(heard[0]).toMatchObject({ sessionIds: ['S0'], listed: 1, ended: false });
    expect(heard.flatMap((event) => event.sessionIds).sort()).toEqual(['S0', 'S1', 'S2']);
  });

  it('reads only appended lines on re-import and skips unchanged files', async () => {
    const file = sessionFile('S1');
    writeTranscript(file, [prompt('u1', null, 'hello'), reply('a1', 'u1', 'hi')]);
    await h.service.api['import.run']({ paths: [h.projects] });
    const firstSize = statSync(file).size;

    const unchanged = await h.service.api['import.run']({ paths: [h.projects] });
    expect(unchanged.sessions).toEqual([]);
    expect(h.events['import.progress'].at(-1)).toMatchObject({ phase: 'done', filesTotal: 0, bytesTotal: 0 });

    const appended = jsonl([prompt('u2', 'a1', 'and now?', 'S1', 5), reply('a2', 'u2', 'done', 'S1', 6)]);
    appendTranscript(file, appended);
    const grown = await h.service.api['import.run']({ paths: [h.projects] });
    expect(grown.sessions).toEqual([{ id: 'S1', source: 'claude-code', files: 1, nodes: 2 }]);
    // Only the appended bytes were planned for reading.
    expect(h.events['import.progress'].at(-1)).toMatchObject({ filesTotal: 1, bytesTotal: statSync(file).size - firstSize });
    const graph = await h.service.api['sessions.graph']({ sessionId: 'S1' });
    expect(graph.nodes.map((node) => [node.id, node.parentId])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
      ['u2', 'a1'],
      ['a2', 'u2'],
    ]);
  });

  it('leaves a partial last line for the next import', async () => {
    const file = sessionFile('S1');
    const third = JSON.stringify(prompt('u2', 'a1', 'second prompt', 'S1', 5));
    writeTranscript(file, [prompt('u1', null, 'first'), reply('a1', 'u1', 'ok')]);
    appendTranscript(file, third.slice(0, 20));
    const first = await h.service.api['import.run']({ paths: [h.projects] });
    expect(first.sessions[0]?.nodes).toBe(2);
    // Reported as truncated, with its file and line (issue 13), and read again by the next import.
    expect(first.problems).toEqual([{ file, line: 3, reason: expect.stringMatching(/^truncated: /) }]);

    appendTranscript(file, third.slice(20) + '\n' + JSON.stringify(reply('a2', 'u2', 'fine', 'S1', 6)) + '\n');
    const second = await h.service.api['import.run']({ paths: [h.projects] });
    expect(second.problems).toEqual([]);
    expect(second.sessions[0]?.nodes).toBe(2);
    const graph = await h.service.api['sessions.graph']({ sessionId: 'S1' });
    expect(graph.nodes.map((node) => node.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    const node = await h.service.api['nodes.get']({ nodeId: 'u2' });
    expect(node.line).toBe(3);
    expect(JSON.parse(node.raw)).toMatchObject({ uuid: 'u2', message: { content: 'second prompt' } });
  });

  it('keeps one node per uuid when a resumed copy replays history into another file', async () => {
    writeTranscript(sessionFile('S1'), [prompt('u1', null, 'start'), reply('a1', 'u1', 'ok')]);
    writeTranscript(sessionFile('S2'), [
      prompt('u1', null, 'start', 'S2'),
      reply('a1', 'u1', 'ok', 'S2'),
      prompt('u2', 'a1', 'continue in the fork', 'S2', 9),
    ]);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.sessions).toEqual([{ id: 'S1', source: 'claude-code', files: 2, nodes: 3 }]);
    const list = await h.service.api['sessions.list']({});
    expect(list.sessions.map((session) => [session.id, session.nodeCount, session.fileCount])).toEqual([['S1', 3, 2]]);
    expect((await h.service.api['nodes.get']({ nodeId: 'u1' })).file).toBe(sessionFile('S1'));
  });

  it('links a subagent transcript to the Task call that spawned it, and a compaction to its logical parent', async () => {
    writeTranscript(sessionFile('S1'), [
      prompt('u1', null, 'research this'),
      toolCall('a1', 'u1', 'toolu_task', 'Task', { prompt: 'look around', description: 'research' }),
      toolResult('r1', 'a1', 'toolu_task', 'found it', { toolUseResult: { status: 'completed', agentId: 'abc123', content: [] } }),
      compactBoundary('cb', 'r1'),
      prompt('u2', 'cb', 'after compaction', 'S1', 11),
    ]);
    writeTranscript(join(h.projects, '-repo', 'S1', 'subagents', 'agent-abc123.jsonl'), [
      { ...prompt('s1', null, 'look around'), isSidechain: true, agentId: 'abc123' },
      { ...reply('s2', 's1', 'looked'), isSidechain: true, agentId: 'abc123' },
    ]);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.sessions).toEqual([{ id: 'S1', source: 'claude-code', files: 2, nodes: 7 }]);
    const nodes = new Map((await h.service.api['sessions.graph']({ sessionId: 'S1' })).nodes.map((node) => [node.id, node]));
    expect(nodes.get('s1')).toMatchObject({ parentId: null, sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'a1' }] });
    expect(nodes.get('cb')).toMatchObject({ parentId: null, kind: 'compaction', extraEdges: [{ kind: 'logical', nodeId: 'r1' }] });
  });

  it('breaks a parent cycle and reports it as a problem', async () => {
    writeTranscript(sessionFile('S1'), [prompt('x', 'z', 'one'), reply('y', 'x', 'two'), reply('z', 'y', 'three')]);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: sessionFile('S1'), line: 1 });
    const graph = await h.service.api['sessions.graph']({ sessionId: 'S1' });
    expect(graph.nodes.map((node) => [node.id, node.parentSourceId, node.parentId])).toEqual([
      ['x', 'z', null],
      ['y', 'x', 'x'],
      ['z', 'y', 'y'],
    ]);
  });

  it('titles a session from its summary record and attaches records to nodes', async () => {
    writeTranscript(sessionFile('S1'), [prompt('u1', null, 'first prompt'), reply('a1', 'u1', 'ok'), summary('Fix bug in a.py', 'a1')]);
    await h.service.api['import.run']({ paths: [h.projects] });
    expect((await h.service.api['sessions.list']({ query: 'BUG in' })).sessions.map((s) => s.title)).toEqual(['Fix bug in a.py']);
    expect((await h.service.api['sessions.list']({ query: 'nothing like it' })).total).toBe(0);
    const detail = await h.service.api['nodes.get']({ nodeId: 'a1' });
    expect(detail.records).toEqual([{ type: 'summary', file: sessionFile('S1'), line: 3, json: summary('Fix bug in a.py', 'a1') }]);
  });

  it('is cancelled by its signal and leaves the store usable', async () => {
    for (let index = 0; index < 3; index++) {
      writeTranscript(sessionFile(`S${index}`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
    }
    const controller = new AbortController();
    const stop = h.service.events.on('import.progress', (progress) => {
      if (progress.phase === 'import') controller.abort();
    });
    const code = await errorCode(h.service.api['import.run']({ paths: [h.projects] }, { signal: controller.signal }));
    stop();
    expect(code).toBe('CANCELLED');
    expect((await h.service.api['sessions.list']({})).total).toBe(0);
    const rest = await h.service.api['import.run']({ paths: [h.projects] });
    expect(rest.sessions.length).toBe(3);
  });

  it('cancels a running import when the service closes', async () => {
    for (let index = 0; index < 5; index++) {
      writeTranscript(sessionFile(`S${index}`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
    }
    const running = h.service.api['import.run']({ paths: [h.projects] });
    const closing = h.service.close();
    expect(await errorCode(running)).toBe('CANCELLED');
    await closing;
    expect(await errorCode(h.service.api['sessions.list']({}))).toBe('INTERNAL');
  });

  it('keeps the first RAW_LIMIT bytes of a huge line and says where it was cut', async () => {
    writeTranscript(sessionFile('S1'), [prompt('u1', null, 'x'.repeat(RAW_LIMIT + 1000))]);
    await h.service.api['import.run']({ paths: [h.projects] });
    const node = await h.service.api['nodes.get']({ nodeId: 'u1' });
    expect(node.rawTruncatedAt).toBe(RAW_LIMIT);
    expect(Buffer.byteLength(node.raw)).toBe(RAW_LIMIT);
    expect(node.node.kind).toBe('user');
  });

  it('reports missing paths as problems, not failures', async () => {
    const report = await h.service.api['import.run']({ paths: [join(h.root, 'nowhere')] });
    expect(report.sessions).toEqual([]);
    expect(report.problems).toEqual([{ file: join(h.root, 'nowhere'), line: 0, reason: expect.any(String), notImported: true }]);
  });
});

describe('errors', () => {
  it('answers NOT_FOUND for unknown sessions and nodes, BAD_REQUEST for bad requests', async () => {
    expect(await errorCode(h.service.api['sessions.graph']({ sessionId: 'nope' }))).toBe('NOT_FOUND');
    expect(await errorCode(h.service.api['nodes.get']({ nodeId: 'nope' }))).toBe('NOT_FOUND');
    expect(await errorCode(h.service.api['sessions.list']({ limit: -3 }))).toBe('BAD_REQUEST');
  });
});
