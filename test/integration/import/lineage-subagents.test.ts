/**
 * Subagent lineage of Claude Code 2026 (issue 13): a forked subagent's file opens with `fork-context-ref
 * {agentId, parentSessionId, parentLastUuid, contextLength}` and hangs from `parentLastUuid`, not from a
 * guessed spawn call; nested agents stored flat (`agent-<id>.meta.json` with `parentAgentId`, and
 * `subagents/workflows/<id>/`) nest under the agent that spawned them, labelled from their meta file.
 */
import { join, resolve } from 'node:path';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { agentMetaJson } from '../../../electron/demo/transcript-builder';
import type { NodeSummary } from '../../../shared/model';
import { openHarness, type Harness } from '../service/service-harness';
import { agentCall, builder, random, talkTurn, writeLines } from './lineage-fixtures';

const MAIN = '4d000000-0000-4000-8000-00000000000d';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const sessionFolder = () => join(h.projects, '-home-dev-app');
const agentPath = (id: string, workflow?: string) =>
  join(sessionFolder(), MAIN, 'subagents', ...(workflow === undefined ? [] : ['workflows', workflow]), `agent-${id}.jsonl`);

async function nodes(): Promise<readonly NodeSummary[]> {
  return (await h.service.api['sessions.graph']({ sessionId: MAIN })).nodes;
}

function forkedSubagentFixture() {
  const r = random(11);
  const main = builder(r, MAIN);
  const context = talkTurn(main, 'look at the parser', 'It is a recursive descent parser.');
  const spawn = agentCall(main, 'f0rk3d', 'review it with my context');
  const agent = builder(r, MAIN, { agentId: 'f0rk3d', startMinutes: 1 });
  agent.forkContextRef(MAIN, context.reply, 2);
  const root = agent.userPrompt('review it with my context');
  agent.assistant([{ type: 'text', text: 'Reviewed.' }], 'claude-opus-4-5', { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }, 'end_turn');
  return { main: main.take(), agent: agent.take(), context, spawn, root };
}

for (const order of ['the main file first', 'the subagent file first'] as const) {
  it(`fork-context-ref: the forked subagent hangs from parentLastUuid, not from its spawn call (${order})`, async () => {
    const f = forkedSubagentFixture();
    writeLines(join(sessionFolder(), `${MAIN}.jsonl`), f.main);
    writeLines(agentPath('f0rk3d'), f.agent);
    const files = [join(sessionFolder(), `${MAIN}.jsonl`), agentPath('f0rk3d')];
    for (const file of order === 'the main file first' ? files : files.reverse()) {
      expect((await h.service.api['import.run']({ paths: [file] })).problems).toEqual([]);
    }
    const root = (await nodes()).find((node) => node.id === f.root)!;
    expect(root).toMatchObject({ sidechain: true, parentId: null, extraEdges: [{ kind: 'subagent', nodeId: f.context.reply }] });
    expect(f.spawn.call).not.toBe(f.context.reply);
  });
}

function nestedFixture() {
  const r = random(12);
  const main = builder(r, MAIN);
  talkTurn(main, 'research the bug', 'Starting an agent.');
  const outerSpawn = agentCall(main, 'outer', 'research');
  const outer = builder(r, MAIN, { agentId: 'outer', startMinutes: 1 });
  const outerRoot = outer.userPrompt('research');
  // The outer agent's result line does not name the agent it spawned: only the meta file links them.
  const innerSpawn = agentCall(outer, null, 'dig deeper');
  const inner = builder(r, MAIN, { agentId: 'inner', startMinutes: 2 });
  const innerRoot = inner.userPrompt('dig deeper');
  const flow = builder(r, MAIN, { agentId: 'step1', startMinutes: 3 });
  const flowRoot = flow.userPrompt('workflow step one');
  return { main: main.take(), outer: outer.take(), inner: inner.take(), flow: flow.take(), outerSpawn, outerRoot, innerSpawn, innerRoot, flowRoot };
}

function writeNested(f: ReturnType<typeof nestedFixture>): void {
  writeLines(join(sessionFolder(), `${MAIN}.jsonl`), f.main);
  writeLines(agentPath('outer'), f.outer);
  writeFileSync(join(sessionFolder(), MAIN, 'subagents', 'agent-outer.meta.json'), agentMetaJson({ agentType: 'general-purpose', description: 'research' }));
  writeLines(agentPath('inner'), f.inner);
  writeFileSync(join(sessionFolder(), MAIN, 'subagents', 'agent-inner.meta.json'), agentMetaJson({ agentType: 'Explore', description: 'dig deeper', parentAgentId: 'outer' }));
  // A workflow agent whose meta names the agent that started it.
  writeLines(agentPath('step1', 'run-by-outer'), f.flow);
  writeFileSync(join(sessionFolder(), MAIN, 'subagents', 'workflows', 'run-by-outer', 'agent-step1.meta.json'), agentMetaJson({ parentAgentId: 'outer' }));
}

it('nested subagents stored flat (meta.json parentAgentId, subagents/workflows/<id>/) nest under the agent that spawned them', async () => {
  const f = nestedFixture();
  writeNested(f);
  // agent-inner sorts before agent-outer: the nested agent is read before the agent that spawned it.
  expect((await h.service.api['import.run']({ paths: [h.projects] })).problems).toEqual([]);
  const graph = await nodes();
  const byId = new Map(graph.map((node) => [node.id, node]));
  expect(byId.get(f.outerRoot)?.extraEdges).toEqual([{ kind: 'subagent', nodeId: f.outerSpawn.call }]);
  expect(byId.get(f.innerRoot)?.extraEdges).toEqual([{ kind: 'subagent', nodeId: f.innerSpawn.call }]);
  expect(byId.get(f.flowRoot)?.extraEdges).toEqual([{ kind: 'subagent', nodeId: f.innerSpawn.call }]);
  // The run's label comes from its meta file (agentType: description) when it has one.
  expect(byId.get(f.outerRoot)?.label).toBe('general-purpose: research');
  expect(byId.get(f.innerRoot)?.label).toBe('Explore: dig deeper');
  expect(byId.get(f.flowRoot)?.label).toBe('workflow step one');
});

it('subagents/workflows/<runId>/: a workflow\'s agents nest under the call that launched the run (its result names the runId)', async () => {
  const r = random(13);
  const main = builder(r, MAIN);
  talkTurn(main, 'review the diff', 'Launching a workflow.');
  const id = main.toolUseId();
  const call = main.assistant([{ type: 'tool_use', id, name: 'Workflow', input: { script: 'review.js' } }], 'claude-opus-4-5', { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }, 'tool_use').calls[0]!;
  main.toolResult(call, 'Workflow launched in background.', { isAsync: true, status: 'async_launched', runId: 'wf_run1', transcriptDir: `${MAIN}/subagents/workflows/wf_run1` });
  const step = builder(r, MAIN, { agentId: 'w1', startMinutes: 1 });
  const root = step.userPrompt('Map the loader area.');
  // The agent file first (it sorts before the main file's folder walk finishes), then the launch.
  writeLines(agentPath('w1', 'wf_run1'), step.take());
  writeFileSync(join(sessionFolder(), MAIN, 'subagents', 'workflows', 'wf_run1', 'agent-w1.meta.json'), agentMetaJson({ agentType: 'workflow-subagent' }));
  expect((await h.service.api['import.run']({ paths: [agentPath('w1', 'wf_run1')] })).problems).toEqual([]);
  writeLines(join(sessionFolder(), `${MAIN}.jsonl`), main.take());
  expect((await h.service.api['import.run']({ paths: [h.projects] })).problems).toEqual([]);
  const node = (await nodes()).find((each) => each.id === root);
  expect(node).toMatchObject({ extraEdges: [{ kind: 'subagent', nodeId: call.lineUuid }], label: 'workflow-subagent: Map the loader area.' });
});

it('nested subagents stored flat: the parent agent imported first, the nested one in a later import', async () => {
  const f = nestedFixture();
  writeNested(f);
  await h.service.api['import.run']({ paths: [join(sessionFolder(), `${MAIN}.jsonl`), agentPath('outer')] });
  await h.service.api['import.run']({ paths: [agentPath('inner')] });
  const inner = (await nodes()).find((node) => node.id === f.innerRoot);
  expect(inner?.extraEdges).toEqual([{ kind: 'subagent', nodeId: f.innerSpawn.call }]);
});

const workflowCorpus = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code/claude-code-log/fixtures/workflow_basic');
if (!existsSync(workflowCorpus)) console.warn(`lineage-subagents: corpus case skipped, ${workflowCorpus} is absent (the public corpus lives beside the repo)`);

it.skipIf(!existsSync(workflowCorpus))('subagents/workflows/<runId>/ in the corpus (workflow_basic): each agent nests under the Workflow call, labelled by its meta', async () => {
  expect((await h.service.api['import.run']({ paths: [workflowCorpus] })).problems).toEqual([]);
  const sessions = (await h.service.api['sessions.list']({})).sessions;
  expect(sessions.map((session) => session.id)).toEqual(['11110000-0000-4000-8000-000000000001']);
  const graph = (await h.service.api['sessions.graph']({ sessionId: sessions[0]!.id })).nodes;
  const launch = graph.find((node) => node.toolCalls.some((call) => call.name === 'Workflow'))!;
  const roots = graph.filter((node) => node.sidechain && node.parentId === null);
  expect(roots.map((node) => node.agentId).sort()).toEqual(['ag000001', 'ag000002', 'ag000003']);
  for (const root of roots) {
    expect(root.extraEdges).toEqual([{ kind: 'subagent', nodeId: launch.id }]);
    expect(root.label.startsWith('workflow-subagent: ')).toBe(true);
  }
});
