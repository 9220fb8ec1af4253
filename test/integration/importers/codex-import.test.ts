/** A generated Codex rollout through the real service: imported, listed as Codex, opened, read, searched. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleRollout } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const ID = '019e0000-0000-7000-8000-0000000000aa';

describe('importing Codex rollouts', () => {
  it('a plain and a compressed copy of one rollout are one Codex session, listed, opened and searched', async () => {
    const folder = join(h.root, 'codex', 'sessions', '2026', '11', '30');
    mkdirSync(folder, { recursive: true });
    const rollout = sampleRollout({ id: ID, cwd: '/work/app' });
    await rollout.write(join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl`));
    await rollout.write(join(h.root, 'codex', `rollout-2026-11-30T09-00-00-${ID}.jsonl.zst`));

    const report = await h.service.api['import.run']({ paths: [join(h.root, 'codex')] });
    expect(report.problems).toEqual([]);
    expect(report.sessions.map((session) => [session.id, session.source])).toEqual([[ID, 'codex']]);

    const list = await h.service.api['sessions.list']({});
    expect(list.sessions.map((session) => [session.id, session.source, session.nodeCount])).toEqual([[ID, 'codex', 18]]);

    const graph = await h.service.api['sessions.graph']({ sessionId: ID });
    const prompt = graph.nodes.find((node) => node.kind === 'user');
    expect(prompt?.label).toBe('Fix the failing date test');
    const detail = await h.service.api['nodes.get']({ nodeId: prompt!.id });
    expect(detail.blocks).toEqual([{ type: 'text', text: 'Fix the failing date test' }]);
    const call = graph.nodes.find((node) => node.label === 'git status --short' || node.label === 'exec_command: git status --short');
    expect(call?.toolCalls).toEqual([{ id: 'call_0005', name: 'exec_command', outcome: 'missing' }]);

    // Claude's format doctor called every Codex record type "not understood" in the session header.
    const formatReport = await h.service.api['sessions.formatReport']({ sessionId: ID });
    expect(formatReport.unmodelled).toEqual([]);

    await h.service.idle();
    const hits = await h.service.api['search.query']({ query: 'weekday' });
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(new Set(hits.hits.map((hit) => hit.sessionId))).toEqual(new Set([ID]));
  });
});
