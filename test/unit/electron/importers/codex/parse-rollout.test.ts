import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../../../electron/demo/codex-rollout';
import { parseRollout } from './parse-helpers';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-codex-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-000000000001';
const scope = { id: ID, cwd: '/work/app' };

describe('parseCodexRollout, legacy history', () => {
  it('makes one chain of steps, each message once, calls paired by call_id', async () => {
    const path = join(dir, `rollout-${ID}.jsonl`);
    await sampleRollout(scope).write(path);
    const { nodes, problems } = await parseRollout(path);
    expect(problems).toEqual([]);
    expect(nodes.map((node) => node.kind)).toEqual([
      'system', // session_meta
      'user', 'thinking', 'tool_call', 'error', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant',
      'user', 'tool_call', 'error', 'tool_call', 'system', // rejected patch, call without output, interrupted
      'compaction',
      'user', 'assistant',
    ]);
    for (let index = 1; index < nodes.length; index++) expect(nodes[index]?.parentSourceId).toBe(nodes[index - 1]?.sourceId);
    expect(nodes[0]?.parentSourceId).toBeNull();
    expect(new Set(nodes.map((node) => node.sessionSourceId))).toEqual(new Set([ID]));
    expect(nodes[14]?.label).toBe('Turn interrupted (interrupted)');
    expect(nodes[15]?.label).toBe('Compacted: Fixed the UTC weekday bug; renaming the helper was interrupted.');
    const rejected = nodes[12];
    expect(rejected?.toolResults).toEqual([{ toolUseId: 'call_0004', isError: true }]);
    expect(rejected?.label).toMatch(/^✗ apply_patch — apply_patch verification failed/);
    // The call with no output has no result anywhere: the store marks it "outcome not recorded".
    const unanswered = nodes[13];
    expect(unanswered?.toolUses).toEqual([{ id: 'call_0005', name: 'exec_command' }]);
    expect(nodes.some((node) => node.toolResults.some((result) => result.toolUseId === 'call_0005'))).toBe(false);
  });

  it('labels a command by its tool and command, its result by exit code and output, and gives replies their usage', async () => {
    const path = join(dir, 'rollout.jsonl');
    await sampleRollout(scope).write(path);
    const { nodes } = await parseRollout(path);
    expect(nodes[3]?.label).toBe('exec_command: npm test -- dates');
    expect(nodes[4]?.label).toBe('✗ exec_command — FAIL dates.test.ts');
    expect(nodes[5]?.label).toBe('apply_patch: Update src/dates.ts');
    expect(nodes[6]?.label).toBe('✓ apply_patch — Success. Updated the following files:');
    expect(nodes[9]?.label).toBe('The date test passes now: the weekday is read in UTC.');
    expect(nodes[9]?.usage).toEqual({ inputTokens: 400, outputTokens: 90, cacheReadTokens: 800, cacheCreationTokens: 0 });
    expect(nodes[9]?.model).toBe('gpt-5.1-codex');
    expect(nodes[1]?.cwd).toBe('/work/app');
  });

  it('keeps each echoed message as a record beside its node', async () => {
    const path = join(dir, 'rollout.jsonl');
    await new RolloutBuilder(scope).user('hello').agent('hi there').write(path);
    const { nodes, records } = await parseRollout(path);
    expect(nodes.map((node) => [node.kind, node.label])).toEqual([
      ['system', 'Codex session in /work/app'],
      ['user', 'hello'],
      ['assistant', 'hi there'],
    ]);
    const echoes = records.filter((record) => record.type.startsWith('echo:'));
    expect(echoes.map((record) => record.refSourceId)).toEqual([nodes[1]?.sourceId, nodes[2]?.sourceId]);
  });

  it('records the fork and subagent links of session_meta on the first node', async () => {
    const fork = join(dir, 'fork.jsonl');
    const child = join(dir, 'child.jsonl');
    await new RolloutBuilder({ ...scope, id: 'fork-1', forkedFromId: ID }).user('again').write(fork);
    await new RolloutBuilder({ ...scope, id: 'child-1', parentThreadId: ID }).user('explore').write(child);
    expect((await parseRollout(fork)).nodes[0]?.linkedSession).toEqual({ kind: 'fork-of', sessionSourceId: ID });
    const subagent = (await parseRollout(child)).nodes[0];
    expect(subagent?.linkedSession).toEqual({ kind: 'subagent', sessionSourceId: ID });
    expect(subagent?.label).toBe('Codex subagent in /work/app');
  });

  it('skips unknown line types and reports a malformed line, keeping the rest', async () => {
    const path = join(dir, 'rollout.jsonl');
    const lines = new RolloutBuilder(scope).user('one').future().take();
    await writeFile(path, `${lines.join('\n')}\n{not json\n`);
    const { nodes, records, problems } = await parseRollout(path);
    expect(nodes.map((node) => node.kind)).toEqual(['system', 'user']);
    expect(records.map((record) => record.type)).toContain('future_record_type');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(lines.length + 1);
  });
});

describe('parseCodexRollout, paginated history', () => {
  it('reads item_completed items: messages, commands, file changes with their outcomes', async () => {
    const path = join(dir, 'rollout.jsonl');
    await sampleRollout({ ...scope, mode: 'paginated' }).write(path);
    const { nodes, problems } = await parseRollout(path);
    expect(problems).toEqual([]);
    expect(nodes.map((node) => node.kind)).toEqual([
      'system',
      'user', 'thinking', 'error', 'tool_call', 'tool_call', 'assistant',
      'user', 'error', 'system', // rejected file change; the command without output was never completed
      'compaction',
      'user', 'assistant',
    ]);
    expect(nodes[3]?.label).toBe('exec_command: npm test -- dates');
    expect(nodes[3]?.toolResults).toEqual([{ toolUseId: 'call_0001', isError: true }]);
    expect(nodes[8]?.label).toBe('apply_patch: Update src/dates.ts');
    expect(nodes[8]?.toolResults).toEqual([{ toolUseId: 'call_0004', isError: true }]);
    expect(nodes[6]?.usage?.outputTokens).toBe(90);
  });
});

describe('node identity', () => {
  it('is the same whether a rollout is read whole or as it was appended (regression: ids from positions)', async () => {
    const lines = sampleRollout(scope).take();
    const whole = join(dir, 'whole.jsonl');
    await writeFile(whole, `${lines.join('\n')}\n`);
    const all = await parseRollout(whole);

    const growing = join(dir, 'growing.jsonl');
    const cut = 9;
    await writeFile(growing, `${lines.slice(0, cut).join('\n')}\n`);
    const first = await parseRollout(growing);
    await appendFile(growing, `${lines.slice(cut).join('\n')}\n`);
    const second = await parseRollout(growing, first.endOffset);
    const pieces = [...first.nodes, ...second.nodes];
    expect(pieces.map((node) => [node.sourceId, node.parentSourceId, node.kind, node.label])).toEqual(
      all.nodes.map((node) => [node.sourceId, node.parentSourceId, node.kind, node.label]),
    );
    expect(second.nodes.length).toBeGreaterThan(0);
  });

  it('is the same for a plain and a zstd-compressed copy of a rollout', async () => {
    const builder = sampleRollout(scope);
    await builder.write(join(dir, 'a.jsonl'));
    await builder.write(join(dir, 'a.jsonl.zst'));
    const plain = await parseRollout(join(dir, 'a.jsonl'));
    const packed = await parseRollout(join(dir, 'a.jsonl.zst'));
    expect(packed.nodes.map((node) => node.sourceId)).toEqual(plain.nodes.map((node) => node.sourceId));
    expect(packed.nodes.map((node) => node.label)).toEqual(plain.nodes.map((node) => node.label));
    // A compressed file has no resume point: it is read whole again when it changes.
    expect(packed.endOffset).toBe(0);
    expect(plain.endOffset).toBe(builder.text().length);
  });
});
