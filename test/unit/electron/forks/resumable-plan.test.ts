import { describe, expect, it } from 'vitest';
import { pairingProblems, planResumableTranscript, type ResumablePlan, type TranscriptSource } from '../../../../electron/forks/resumable-plan';
import { renderResumableTranscript } from '../../../../electron/forks/resumable-transcript';
import { readTranscriptEntry } from '../../../../electron/forks/transcript-entry';

type Json = Record<string, unknown>;

const prompt = (uuid: string, parentUuid: string | null, text = 'do it'): Json => ({ type: 'user', uuid, parentUuid, sessionId: 'S', cwd: '/repo', message: { role: 'user', content: text } });
const call = (uuid: string, parentUuid: string | null, messageId: string, toolUseId: string): Json => ({
  type: 'assistant', uuid, parentUuid, sessionId: 'S', cwd: '/repo',
  message: { id: messageId, role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: 'Bash', input: { command: 'ls' } }] },
});
const thinking = (uuid: string, parentUuid: string | null, messageId: string): Json => ({
  type: 'assistant', uuid, parentUuid, sessionId: 'S', cwd: '/repo',
  message: { id: messageId, role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm \u00e9', signature: 'sig==' }] },
});
const text = (uuid: string, parentUuid: string | null, messageId: string): Json => ({
  type: 'assistant', uuid, parentUuid, sessionId: 'S', message: { id: messageId, role: 'assistant', content: [{ type: 'text', text: 'done' }] },
});
const result = (uuid: string, parentUuid: string | null, toolUseId: string): Json => ({
  type: 'user', uuid, parentUuid, sessionId: 'S', cwd: '/repo/sub', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok' }] },
});
const progress = (uuid: string, parentUuid: string | null): Json => ({ type: 'progress', uuid, parentUuid, sessionId: 'S', data: { type: 'hook_progress' } });

/** A source over hand-written lines, parents and results derived the way the store does. */
function sourceOf(lines: readonly Json[], sidechain: ReadonlySet<string> = new Set()): TranscriptSource {
  const byId = new Map(lines.map((line) => [String(line.uuid), line]));
  const parentOf = (id: string): string | null => {
    const parent = byId.get(id)?.parentUuid;
    return typeof parent === 'string' && byId.has(parent) ? parent : null;
  };
  return {
    parentOf: (id) => (byId.has(id) ? parentOf(id) : undefined),
    isSidechain: (id) => sidechain.has(id),
    childrenOf: (id) => lines.map((line) => String(line.uuid)).filter((child) => parentOf(child) === id && !sidechain.has(child)),
    entry: async (id) => readTranscriptEntry(id, JSON.stringify(byId.get(id))),
    resultOf: (_callId, toolUseId) => {
      const carrier = lines.find((line) => readTranscriptEntry(String(line.uuid), JSON.stringify(line)).toolResults.includes(toolUseId));
      return carrier === undefined ? null : String(carrier.uuid);
    },
  };
}

async function plan(lines: readonly Json[], target: string): Promise<ResumablePlan> {
  const outcome = await planResumableTranscript(sourceOf(lines), target);
  if (!outcome.resumable) throw new Error(outcome.reason);
  return outcome.plan;
}

const ids = (plan: ResumablePlan): string[] => plan.lines.map((line) => line.entry.id);
const chained = (plan: ResumablePlan): boolean => plan.lines.every((line, i) => line.parentUuid === (i === 0 ? null : plan.lines[i - 1]!.entry.id));
const paired = (plan: ResumablePlan) => {
  const problems = pairingProblems(plan.lines.map((line) => line.entry));
  return problems.unansweredCalls.size + problems.orphanResults.size;
};

describe('planResumableTranscript', () => {
  it('completes a tool call’s turn with its result, through side-channel lines', async () => {
    const lines = [prompt('u1', null), call('a1', 'u1', 'm1', 't1'), progress('p1', 'a1'), result('r1', 'p1', 't1'), text('a2', 'r1', 'm2')];
    const planned = await plan(lines, 'a1');
    expect(ids(planned)).toEqual(['u1', 'a1', 'p1', 'r1']);
    expect(planned.completedBy).toEqual(['p1', 'r1']);
    expect(chained(planned) && paired(planned) === 0).toBe(true);
  });

  it('takes the rest of the API message and every parallel result', async () => {
    const lines = [prompt('u1', null), thinking('a0', 'u1', 'm1'), call('a1', 'a0', 'm1', 't1'), call('a2', 'a1', 'm1', 't2'), result('r1', 'a2', 't1'), result('r2', 'r1', 't2'), text('a3', 'r2', 'm2')];
    expect(ids(await plan(lines, 'a0'))).toEqual(['u1', 'a0', 'a1', 'a2', 'r1', 'r2']);
    expect(ids(await plan(lines, 'r1'))).toEqual(['u1', 'a0', 'a1', 'a2', 'r1', 'r2']);
  });

  it('moves a result left beside the chain (the parallel-call ladder) to just after its call’s message', async () => {
    const lines = [prompt('u1', null), call('a1', 'u1', 'm1', 't1'), result('r1', 'a1', 't1'), call('a2', 'a1', 'm1', 't2'), result('r2', 'a2', 't2'), text('a3', 'r2', 'm2')];
    const planned = await plan(lines, 'a3');
    expect(ids(planned)).toEqual(['u1', 'a1', 'a2', 'r1', 'r2', 'a3']);
    expect(chained(planned) && paired(planned) === 0).toBe(true);
    const written = renderResumableTranscript(planned, { sessionId: 'NEW', fromDir: '/repo', toDir: '/fork' }).trimEnd().split('\n').map((l) => JSON.parse(l) as Json);
    expect(written.map((line) => line.parentUuid)).toEqual([null, 'u1', 'a1', 'a2', 'r1', 'r2']);
    expect(written.map((line) => line.cwd)).toEqual(['/fork', '/fork', '/fork', '/fork/sub', '/fork/sub', undefined]);
    expect(written.every((line) => line.sessionId === 'NEW')).toBe(true);
  });

  it('drops a whole assistant message whose call has no recorded result, and relinks the chain', async () => {
    const lines = [prompt('u1', null), thinking('a0', 'u1', 'm1'), call('a1', 'a0', 'm1', 't1'), prompt('u2', 'a1', 'never mind'), text('a2', 'u2', 'm2')];
    const planned = await plan(lines, 'a2');
    expect(ids(planned)).toEqual(['u1', 'u2', 'a2']);
    expect(planned.dropped.map((line) => line.id).sort()).toEqual(['a0', 'a1']);
    expect(chained(planned)).toBe(true);
  });

  it('ends before the target when the target is a call whose outcome was never recorded', async () => {
    const lines = [prompt('u1', null), text('a0', 'u1', 'm0'), prompt('u2', 'a0'), call('a1', 'u2', 'm1', 't1')];
    const planned = await plan(lines, 'a1');
    expect(planned.targetKept).toBe(false);
    expect(ids(planned)).toEqual(['u1', 'a0', 'u2']);
  });

  it('drops a tool result whose call is gone (before a compaction)', async () => {
    const boundary: Json = { type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, logicalParentUuid: 'x', sessionId: 'S' };
    const summary: Json = { ...prompt('s1', 'b1', 'This session is being continued…'), isCompactSummary: true };
    const lines = [boundary, summary, result('r0', 's1', 't-before'), text('a1', 'r0', 'm1')];
    const planned = await plan(lines, 'a1');
    expect(ids(planned)).toEqual(['b1', 's1', 'a1']);
    expect(planned.dropped).toEqual([{ id: 'r0', reason: 'tool result without its call' }]);
    // Forking at the boundary itself takes its summary, so the copy has a message to resume.
    expect(ids(await plan(lines, 'b1'))).toEqual(['b1', 's1']);
  });

  it('will not resume a subagent step, and says why', async () => {
    const lines = [prompt('u1', null), prompt('sub1', null)];
    const outcome = await planResumableTranscript(sourceOf(lines, new Set(['sub1'])), 'sub1');
    expect(outcome).toMatchObject({ resumable: false, reason: expect.stringContaining('subagent') });
    await expect(planResumableTranscript(sourceOf(lines), 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
