/**
 * A stored line is read back by the importer of its file's recorded format (`files.format`), not by a guess
 * from its first 256 characters: the guess read a Codex line whose envelope starts with `ordinal` as Claude
 * Code's, and a Claude line shaped like a rollout envelope as Codex's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { readAnyNodeContent } from '../../../electron/importers/registry';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const CODEX_ID = '019e0000-0000-7000-8000-0000000000f1';
const CLAUDE_ID = '5b0c2a1e-0000-4000-8000-0000000000f2';
const long = 'the weekday is read in UTC now; '.repeat(20);

describe('reading a stored line by its file format', () => {
  it('a Codex line that starts like no rollout envelope (ordinal first) is still read as Codex', async () => {
    const folder = join(h.root, 'codex');
    mkdirSync(folder, { recursive: true });
    // Newer Codex builds add an `ordinal`; a writer that puts it first starts the line with no envelope.
    const lines = new RolloutBuilder({ id: CODEX_ID, cwd: '/work/app' }).user('Fix it').agent(long).take();
    const ordinalFirst = lines.map((line, index) => JSON.stringify({ ordinal: index, ...(JSON.parse(line) as object) }));
    writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${CODEX_ID}.jsonl`), ordinalFirst.map((line) => `${line}\n`).join(''));
    const report = await h.service.api['import.run']({ paths: [folder] });
    expect(report.sessions.map((session) => session.source)).toEqual(['codex']);

    const graph = await h.service.api['sessions.graph']({ sessionId: CODEX_ID });
    const reply = graph.nodes.find((node) => node.kind === 'assistant')!;
    const detail = await h.service.api['nodes.get']({ nodeId: reply.id });
    expect(detail.blocks).toEqual([{ type: 'text', text: long }]);
    // What the guess made of the same line: Claude Code's reader, which finds no message in it.
    expect(readAnyNodeContent(detail.raw).blocks).not.toEqual(detail.blocks);
  });

  it('a Claude Code line shaped like a rollout envelope is still read as Claude Code', async () => {
    const folder = join(h.root, 'claude', 'projects', '-work-app');
    mkdirSync(folder, { recursive: true });
    const base = { sessionId: CLAUDE_ID, cwd: '/work/app', version: '2.1.30' };
    const prompt = { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-30T09:00:00.000Z', message: { role: 'user', content: 'Fix it' } };
    // A record type this Arbor does not know, kept as an opaque node; its keys happen to start like a rollout's.
    const future = { timestamp: '2026-11-30T09:00:01.000Z', type: 'event_msg', payload: { type: 'agent_message', message: long }, ...base, uuid: 'u2', parentUuid: 'u1' };
    writeFileSync(join(folder, `${CLAUDE_ID}.jsonl`), `${JSON.stringify(prompt)}\n${JSON.stringify(future)}\n`);
    const report = await h.service.api['import.run']({ paths: [join(h.root, 'claude', 'projects')] });
    expect(report.sessions.map((session) => session.source)).toEqual(['claude-code']);

    const graph = await h.service.api['sessions.graph']({ sessionId: CLAUDE_ID });
    const node = graph.nodes.find((n) => n.sourceId === 'u2')!;
    const detail = await h.service.api['nodes.get']({ nodeId: node.id });
    expect(detail.blocks.map((block) => (block.type === 'other' ? block.blockType : block.type))).toEqual(['event_msg']);
    expect(detail.cwd).toBe('/work/app');
    // The guess read it as a Codex agent message.
    expect(readAnyNodeContent(detail.raw).blocks).toEqual([{ type: 'text', text: long }]);
  });
});
