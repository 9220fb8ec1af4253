/** The parser's reading of Claude Code 2026 lineage lines (lineage.ts, agent-meta.ts), from generated transcripts. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAgentMeta } from '../../../../../electron/importers/claude-code/agent-meta';
import { agentMetaJson, TranscriptBuilder } from '../../../../../electron/demo/transcript-builder';
import { Random } from '../../../../../shared/random';
import { parseLines, tempDir } from '../fixtures/claude-lines';

const PARENT = '11111111-0000-4000-8000-000000000001';
const FORK = '22222222-0000-4000-8000-000000000002';
const scope = (sessionId: string, agentId?: string) => ({ sessionId, cwd: '/repo', version: '2.1.200', gitBranch: 'main', slug: 's', ...(agentId ? { agentId } : {}) });

function parentAndFork(newUuids: boolean) {
  const random = new Random(3);
  const parent = new TranscriptBuilder(scope(PARENT), random, new Date(Date.UTC(2026, 1, 1)));
  const prompt = parent.userPrompt('hello');
  const reply = parent.assistant([{ type: 'text', text: 'hi' }], 'm', { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }, 'end_turn').uuids[0]!;
  const fork = new TranscriptBuilder(scope(FORK), random, new Date(Date.UTC(2026, 1, 2)));
  const copies = fork.forkCopies(parent.take(), PARENT, { newUuids });
  const own = fork.userPrompt('in the fork');
  return { prompt, reply, copies, own, lines: fork.take() };
}

describe('lineage lines', () => {
  it('forkedFrom (same uuids): each copy is emitted as the parent session\'s node', async () => {
    const f = parentAndFork(false);
    const { nodes } = await parseLines(f.lines);
    expect(nodes.map((node) => [node.sourceId, node.parentSourceId, node.sessionSourceId, node.forkedFrom?.messageUuid])).toEqual([
      [f.prompt, null, PARENT, f.prompt],
      [f.reply, f.prompt, PARENT, f.reply],
      [f.own, f.reply, FORK, undefined],
    ]);
  });

  it('forkedFrom (new uuids): copies become their originals, and the first own line hangs from the original fork point', async () => {
    const f = parentAndFork(true);
    expect(f.copies).not.toContain(f.reply);
    const { nodes } = await parseLines(f.lines);
    expect(nodes.map((node) => [node.sourceId, node.parentSourceId, node.sessionSourceId])).toEqual([
      [f.prompt, null, PARENT],
      [f.reply, f.prompt, PARENT],
      [f.own, f.reply, FORK],
    ]);
    // Each copy says its own uuid, for the store to map it in later imports.
    expect(nodes.map((node) => node.forkedFrom?.copyUuid)).toEqual([...f.copies, undefined]);
    // The raw line is the file's own, untouched.
    expect(nodes[0]!.raw.toString('utf8')).toContain(`"uuid":"${f.copies[0]}"`);
  });

  it('fork-context-ref: the record points at parentLastUuid and the run\'s root inherits that context', async () => {
    const random = new Random(4);
    const agent = new TranscriptBuilder(scope(PARENT, 'a1'), random, new Date(Date.UTC(2026, 1, 1)));
    agent.forkContextRef(PARENT, 'parent-last', 40);
    const root = agent.userPrompt('go');
    agent.userPrompt('more');
    const { nodes, records } = await parseLines(agent.take(), { role: 'subagent', agentId: 'a1', sessionHint: PARENT });
    expect(records.map((record) => [record.type, record.refSourceId])).toEqual([['fork-context-ref', 'parent-last']]);
    expect(nodes.map((node) => [node.sourceId, node.contextParentSourceId])).toEqual([[root, 'parent-last'], [expect.any(String), undefined]]);
  });

  it('continued-in: the record names the session it goes on in', async () => {
    const agent = new TranscriptBuilder(scope(PARENT), new Random(5), new Date(Date.UTC(2026, 1, 1)));
    agent.userPrompt('go');
    agent.continuedIn(FORK);
    const { records } = await parseLines(agent.take());
    expect(records.map((record) => [record.type, record.sessionSourceId, record.continuedInSessionId])).toEqual([['continued-in', PARENT, FORK]]);
  });

  it('agent meta (agent-<id>.meta.json): parentAgentId and the run label; a workflow folder names its agent; none without a file', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const flat = join(dir, 's', 'subagents');
      await mkdir(join(flat, 'workflows', 'wf1'), { recursive: true });
      await writeFile(join(flat, 'agent-b.meta.json'), agentMetaJson({ agentType: 'Explore', description: 'find it', parentAgentId: 'a' }));
      await writeFile(join(flat, 'agent-c.meta.json'), '{not json');
      expect(await readAgentMeta(join(flat, 'agent-b.jsonl'))).toEqual({ parentAgentId: 'a', agentLabel: 'Explore: find it' });
      expect(await readAgentMeta(join(flat, 'agent-c.jsonl'))).toEqual({ parentAgentId: null, agentLabel: null });
      expect(await readAgentMeta(join(flat, 'workflows', 'wf1', 'agent-d.jsonl'))).toEqual({ parentAgentId: null, agentLabel: null, workflowRunId: 'wf1' });
      // The label names the run's root, once, when the file is read from its start.
      const agent = new TranscriptBuilder(scope(PARENT, 'b'), new Random(6), new Date(Date.UTC(2026, 1, 1)));
      agent.userPrompt('find the thing');
      agent.userPrompt('second root');
      const { nodes } = await parseLines(agent.take(), { role: 'subagent', agentId: 'b', agentLabel: 'Explore: find it' });
      expect(nodes.map((node) => node.label)).toEqual(['Explore: find it', 'second root']);
    } finally {
      await cleanup();
    }
  });
});
