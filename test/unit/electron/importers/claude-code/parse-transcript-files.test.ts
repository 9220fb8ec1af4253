/** Parser behaviour that depends on the file: subagents, inline sidechains, huge lines, resuming, cancelling. */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../../../../shared/errors';
import { assistantLine, envelope, parseFile, parseLines, SESSION, toolResult, toolUse, userLine, tempDir } from '../fixtures/claude-lines';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe('subagent files', () => {
  it('takes agentId from the line, else from the file name', async () => {
    const { nodes } = await parseLines(
      [
        userLine('s1', null, 'Research the loader', { isSidechain: true, agentId: 'a485154' }),
        assistantLine('s2', 's1', [{ type: 'text', text: 'ok' }], { isSidechain: true }),
      ],
      { role: 'subagent', agentId: 'fromname', sessionHint: SESSION },
    );
    expect(nodes.map((node) => [node.sidechain, node.agentId, node.spawnedByToolUseId])).toEqual([
      [true, 'a485154', null],
      [true, 'fromname', null],
    ]);
  });
});

describe('inline (1.0.x) sidechains', () => {
  const task = (id: string, prompt: string) => toolUse(id, 'Task', { description: prompt.slice(0, 10), prompt });
  const root = (uuid: string, prompt: string) => userLine(uuid, null, prompt, { isSidechain: true });

  it('links each sidechain root to the Task whose prompt it carries, whatever the finishing order', async () => {
    const { nodes } = await parseLines([
      assistantLine('a1', 'u0', [task('toolu_A', 'Build the components')]),
      assistantLine('a2', 'a1', [task('toolu_B', 'Create the project')]),
      assistantLine('a3', 'a2', [task('toolu_C', 'Write the types')]),
      root('sB', 'Create the project'),
      userLine('rB', 'a3', [toolResult('toolu_B', 'done')]),
      root('sC', 'Write the types'),
      root('sA', 'Build the components'),
    ]);
    const links = Object.fromEntries(nodes.filter((node) => node.sidechain).map((node) => [node.sourceId, node.spawnedByToolUseId]));
    expect(links).toEqual({ sB: 'toolu_B', sC: 'toolu_C', sA: 'toolu_A' });
    expect(nodes.find((node) => node.sourceId === 'a1')?.label).toBe('Task: Build the');
  });

  it('falls back to the most recent unmatched call, and links nothing once none is pending', async () => {
    const { nodes } = await parseLines([
      assistantLine('a1', 'u0', [toolUse('toolu_1', 'Agent', { prompt: 'one' })]),
      assistantLine('a2', 'a1', [toolUse('toolu_2', 'Agent', { prompt: 'two' })]),
      root('x', 'a prompt that matches nothing'),
      root('y', 'another'),
      root('z', 'and a third'),
    ]);
    expect(nodes.slice(2).map((node) => node.spawnedByToolUseId)).toEqual(['toolu_2', 'toolu_1', null]);
  });

  it('does not link calls that already have a result, nor sidechain lines that are not roots', async () => {
    const { nodes } = await parseLines([
      assistantLine('a1', 'u0', [task('toolu_1', 'p')]),
      userLine('r1', 'a1', [toolResult('toolu_1', 'done')]),
      root('s', 'p'),
      assistantLine('s2', 's', [{ type: 'text', text: 'hi' }], { isSidechain: true }),
    ]);
    expect(nodes.map((node) => node.spawnedByToolUseId)).toEqual([null, null, null, null]);
  });

  it('does not guess in subagent files, whose roots are linked by agentId', async () => {
    const { nodes } = await parseLines([assistantLine('a1', 'u0', [task('toolu_1', 'p')]), root('s', 'p')], {
      role: 'subagent',
      agentId: 'x',
    });
    expect(nodes[1]?.spawnedByToolUseId).toBeNull();
  });
});

describe('oversize lines', () => {
  const big = 'x'.repeat(5000);

  it('still emits the node with its envelope read from both ends, plus a problem', async () => {
    // 2.x order: the envelope after the huge message; a nested uuid/type inside must not be taken.
    const line = JSON.stringify({
      parentUuid: 'a1',
      isSidechain: false,
      message: { role: 'user', type: 'message', uuid: 'nested', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: big }] },
      type: 'user',
      uuid: 'huge',
      timestamp: '2026-01-01T00:00:00Z',
      sessionId: SESSION,
    });
    const { nodes, problems } = await parseLines([userLine('u1', null, 'before'), line, userLine('u2', 'huge', 'after')], {}, { maxLineBytes: 1024, chunkSize: 256 });
    expect(nodes.map((node) => node.sourceId)).toEqual(['u1', 'huge', 'u2']);
    const node = nodes[1];
    expect(node).toMatchObject({
      parentSourceId: 'a1',
      sessionSourceId: SESSION,
      timestamp: '2026-01-01T00:00:00Z',
      kind: 'tool_result',
      label: 'line too large (6 KB): content not imported',
      toolResults: [{ toolUseId: 'toolu_9', isError: false }],
      line: 2,
      rawBytes: Buffer.byteLength(line),
    });
    expect(node?.raw.length).toBeLessThan(Buffer.byteLength(line));
    expect(problems).toEqual([expect.objectContaining({ line: 2, reason: expect.stringMatching(/^line too large/) })]);
    expect(nodes[2]?.offset).toBe(Buffer.byteLength(userLine('u1', null, 'before')) + 1 + Buffer.byteLength(line) + 1);
  });

  it('reads an envelope written before the content (1.0.x order) and names the tool call', async () => {
    const line = JSON.stringify({
      ...envelope('big-call', 'u1'),
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: '/repo/a', content: big } }] },
    });
    const { nodes } = await parseLines([line], { role: 'subagent', agentId: 'a1b2' }, { maxLineBytes: 1024 });
    expect(nodes[0]).toMatchObject({
      sourceId: 'big-call',
      parentSourceId: 'u1',
      kind: 'tool_call',
      toolUses: [{ id: 'toolu_w', name: 'Write' }],
      cwd: '/repo',
      agentId: 'a1b2',
    });
  });

  it('keeps an oversize line without uuid as a record, and one without type as a problem only', async () => {
    const withType = JSON.stringify({ type: 'progress-blob', data: big });
    const without = JSON.stringify({ data: big });
    const { nodes, records, problems } = await parseLines([withType, without], {}, { maxLineBytes: 1024 });
    expect(nodes).toEqual([]);
    expect(records).toMatchObject([{ type: 'progress-blob', line: 1, rawBytes: Buffer.byteLength(withType) }]);
    expect(problems.map((problem) => problem.line)).toEqual([1, 2]);
  });
});

describe('incremental parsing', () => {
  it('resumes from the returned offset without repeating or skipping a line', async () => {
    const path = join(dir, `${SESSION}.jsonl`);
    const l1 = userLine('u1', null, 'one');
    const l2 = assistantLine('a1', 'u1', [{ type: 'text', text: 'two' }]);
    const l3 = userLine('u2', 'a1', 'three');
    await writeFile(path, `${l1}\n${l2}\n${l3.slice(0, 20)}`); // Claude Code is mid-write of line 3
    const first = await parseFile(path);
    expect(first.nodes.map((node) => node.sourceId)).toEqual(['u1', 'a1']);
    // Reported as truncated (issue 13), and left unread for the next import.
    expect(first.problems).toEqual([{ file: path, line: 3, reason: expect.stringMatching(/^truncated: ends with an incomplete line \(20 bytes\), will be read when complete$/) }]);
    expect(first.result).toEqual({ endOffset: Buffer.byteLength(`${l1}\n${l2}\n`), endLine: 3 });

    await appendFile(path, `${l3.slice(20)}\n`);
    const second = await parseFile(path, {}, { startOffset: first.result.endOffset, startLine: first.result.endLine });
    expect(second.nodes.map((node) => [node.sourceId, node.line, node.offset])).toEqual([['u2', 3, first.result.endOffset]]);
    expect(second.nodes[0]?.raw.toString()).toBe(l3);
  });

  it('imports a complete last line that lacks its newline, and numbers later lines right', async () => {
    const path = join(dir, `${SESSION}.jsonl`);
    const l1 = userLine('u1', null, 'one');
    const l2 = userLine('u2', 'u1', 'two');
    await writeFile(path, `${l1}\n${l2}`);
    const first = await parseFile(path);
    expect(first.nodes.map((node) => [node.sourceId, node.line])).toEqual([['u1', 1], ['u2', 2]]);
    expect(first.result).toEqual({ endOffset: Buffer.byteLength(`${l1}\n${l2}`), endLine: 2 });

    await appendFile(path, `\n${userLine('u3', 'u2', 'three')}\n`);
    const second = await parseFile(path, {}, { startOffset: first.result.endOffset, startLine: first.result.endLine });
    expect(second.problems).toEqual([]);
    expect(second.nodes.map((node) => [node.sourceId, node.line])).toEqual([['u3', 3]]);
  });

  it('remembers nothing across calls: a result whose call was in an earlier import gets a generic label', async () => {
    const path = join(dir, `${SESSION}.jsonl`);
    const call = assistantLine('a1', 'u1', [toolUse('toolu_1', 'Read', { file_path: '/repo/x' })]);
    await writeFile(path, `${call}\n${userLine('r1', 'a1', [toolResult('toolu_1', 'content')])}\n`);
    const resumed = await parseFile(path, {}, { startOffset: Buffer.byteLength(call) + 1, startLine: 2 });
    expect(resumed.nodes[0]?.label).toBe('✓ tool result — content');
  });
});

describe('cancellation and progress', () => {
  it('throws CancelledError when the signal fires and reports bytes read', async () => {
    const path = join(dir, `${SESSION}.jsonl`);
    await writeFile(path, Array.from({ length: 200 }, (_, i) => userLine(`u${i}`, null, `prompt ${i}`)).join('\n') + '\n');
    const seen: number[] = [];
    const done = await parseFile(path, {}, { chunkSize: 4096, onBytes: (bytes) => seen.push(bytes) });
    expect(done.nodes).toHaveLength(200);
    expect(seen.at(-1)).toBe(done.result.endOffset);
    expect(seen.length).toBeGreaterThan(1);

    const controller = new AbortController();
    const cancelled = parseFile(path, {}, { chunkSize: 4096, signal: controller.signal, onBytes: () => controller.abort() });
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
  });
});
