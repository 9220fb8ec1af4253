/**
 * Golden tests for the public Codex rollouts under ../shared/corpus/sessions/codex (read from there, never
 * copied): expectations come from reading each file (see PROVENANCE.md), not from the parser's output.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRollout } from '../../unit/electron/importers/codex/parse-helpers';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/codex');
const present = existsSync(CORPUS);
if (!present) console.warn(`Codex corpus not found at ${CORPUS}: golden tests skipped`);
const at = (path: string) => join(CORPUS, path);

describe.skipIf(!present)('Codex corpus rollouts', () => {
  it('claude-code-log synthetic rollout: echoes folded, apply_patch and MCP calls paired, unknown type kept as a record', async () => {
    const { nodes, records, problems } = await parseRollout(at('claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl'));
    expect(problems).toEqual([]);
    expect(nodes.map((node) => node.kind)).toEqual(['system', 'user', 'thinking', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant']);
    expect(nodes.map((node) => node.line)).toEqual([1, 3, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(nodes[1]?.label).toBe('List the synthetic files.');
    expect(nodes[2]?.label).toBe('I will inspect the synthetic directory.');
    expect(nodes[3]?.label).toBe('exec_command: find . -maxdepth 1 -type f');
    expect(nodes[5]?.label).toBe('apply_patch: Add gamma.txt');
    expect(nodes[6]?.label).toBe('✓ apply_patch — Done!');
    expect(nodes[7]?.label).toBe('mcp__synthetic__lookup: fixture');
    expect(records.map((record) => [record.line, record.type])).toEqual([[2, 'turn_context'], [4, 'echo:message'], [13, 'echo:message'], [14, 'future_synthetic_record']]);
    for (const node of nodes) expect(node.sessionSourceId).toBe('11111111-1111-4111-8111-111111111111');
  });

  it('claude-code-log malformed rollout: the lines before the bad one import, the bad one is a problem', async () => {
    const { nodes, problems } = await parseRollout(at('claude-code-log/malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl'));
    expect(nodes.map((node) => [node.kind, node.line])).toEqual([['system', 1], ['user', 2]]);
    expect(problems.map((problem) => problem.line)).toEqual([3]);
  });

  it('sample-session without id or cwd: named by its file, developer message as system', async () => {
    const { nodes } = await parseRollout(at('claude-code-log/sample-session.jsonl'));
    expect(nodes.map((node) => node.kind)).toEqual(['system', 'system', 'assistant', 'assistant', 'tool_call', 'tool_result', 'assistant']);
    expect(nodes[0]?.sourceId).toBe('sample-session:0');
    expect(nodes[4]?.label).toBe('exec_command: ls -la');
    expect(nodes[2]?.model).toBe('gpt-4o');
  });

  it('ccusage session-alpha (only turn_context and token_count): no steps, every line a record', async () => {
    const { nodes, records } = await parseRollout(at('ccusage/session-alpha.jsonl'));
    expect(nodes).toEqual([]);
    expect(records.length).toBe(readFileSync(at('ccusage/session-alpha.jsonl'), 'utf8').trim().split('\n').length);
  });

  it('codemie turn-1 then turn-2 (the same rollout after each turn): the second import adds only turn 2, same ids', async () => {
    const first = await parseRollout(at('codemie-code/turn-1.jsonl'));
    const whole = await parseRollout(at('codemie-code/turn-2.jsonl'));
    const again = await parseRollout(at('codemie-code/turn-2.jsonl'), first.endOffset);
    expect([...first.nodes, ...again.nodes].map((node) => node.sourceId.split(':')[1])).toEqual(whole.nodes.map((node) => node.sourceId.split(':')[1]));
    expect(first.nodes.filter((node) => node.kind === 'user').map((node) => node.label)).toEqual(['Hello, Codex! Please explain what you do.']);
    expect(again.nodes.filter((node) => node.kind === 'user').map((node) => node.label)).toEqual(['What languages can you work with?']);
  });

  for (const name of ['rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl', 'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl']) {
    it(`codemie ${name.slice(8, 27)}: one call node per call line, each output paired with its call`, async () => {
      const path = at(`codemie-code/${name}`);
      const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as { type: string; payload: { type?: string; call_id?: string } });
      const calls = lines.filter((line) => line.type === 'response_item' && (line.payload.type === 'function_call' || line.payload.type === 'custom_tool_call'));
      const outputs = lines.filter((line) => line.type === 'response_item' && (line.payload.type === 'function_call_output' || line.payload.type === 'custom_tool_call_output'));
      const { nodes, problems } = await parseRollout(path);
      expect(problems).toEqual([]);
      const callIds = nodes.flatMap((node) => node.toolUses.map((use) => use.id));
      expect(callIds.sort()).toEqual(calls.map((line) => line.payload.call_id).sort());
      const resultIds = nodes.flatMap((node) => node.toolResults.map((result) => result.toolUseId));
      expect(resultIds.sort()).toEqual(outputs.map((line) => line.payload.call_id).sort());
      expect(nodes[0]?.sessionSourceId).toBe(name.slice(-'019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'.length, -'.jsonl'.length));
    });
  }
});
