/**
 * The forked rollout's text (electron/forks/codex/forked-rollout.ts) over generated rollouts: the cut keeps the
 * fork point's whole turn, the new session_meta names the source, the source folder's paths move into the
 * fork's folder where Codex reads them back, every other line is the source's, byte for byte, and the result
 * passes the rollout rules.
 */
import { describe, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../../../electron/demo/codex-rollout';
import { cutAfterTurnOf, renderForkedRollout } from '../../../../../electron/forks/codex/forked-rollout';
import { checkRollout } from '../../../../../electron/forks/codex/rollout-rules';
import { viewLine } from '../../../../../electron/forks/codex/rollout-view';

const SOURCE = '019e0000-0000-7000-8000-00000000b000';
const FORK = '019e0000-0000-7000-8000-00000000b001';
const AT = new Date('2026-12-01T10:00:00.000Z');
const views = (rows: readonly string[]) => rows.map(viewLine);
const indexOf = (rows: readonly string[], text: string): number => rows.findIndex((row) => row.includes(text));

function twoTurns(): string[] {
  return new RolloutBuilder({ id: SOURCE, cwd: '/work/app' })
    .user('Fix the failing date test')
    .command('npm test', { exitCode: 0, output: 'PASS /work/app/src/dates.test.ts' })
    .agent('Fixed in /work/app/src/dates.ts.')
    .complete()
    .user('Now rename the helper')
    .agent('Renamed.')
    .complete()
    .take();
}

function render(rows: readonly string[], index: number, fromDir: string | null = '/work/app') {
  const outcome = renderForkedRollout(views(rows), index, { threadId: FORK, fromDir, toDir: '/forks/f1', createdAt: AT });
  if (!outcome.resumable) throw new Error(outcome.reason);
  return outcome;
}

describe('cutAfterTurnOf', () => {
  it('keeps the whole turn of a node in the middle of it: through its task_complete', () => {
    const rows = twoTurns();
    const cut = cutAfterTurnOf(views(rows), indexOf(rows, '"function_call"'));
    expect(cut.at).toBe('turn-end');
    expect(rows[cut.end - 1]).toContain('task_complete');
    expect(rows[cut.end]).toContain('task_started');
  });

  it('a prompt keeps its own turn, not only the lines before it', () => {
    const rows = twoTurns();
    const cut = cutAfterTurnOf(views(rows), indexOf(rows, '"input_text","text":"Fix'));
    expect(rows.slice(0, cut.end).some((row) => row.includes('Fixed in'))).toBe(true);
    expect(rows.slice(0, cut.end).some((row) => row.includes('Now rename'))).toBe(false);
  });

  it('without task events, cuts where the next turn opens (its turn_context goes with it)', () => {
    const rows = twoTurns().filter((row) => !row.includes('task_'));
    const cut = cutAfterTurnOf(views(rows), indexOf(rows, 'Fixed in'));
    expect(cut.at).toBe('next-turn');
    expect(rows[cut.end]).toContain('turn_context');
    expect(rows[cut.end - 1]).toContain('token_count');
  });

  it('the last turn, unfinished, runs to the end of the file', () => {
    const rows = twoTurns().slice(0, -1);
    expect(cutAfterTurnOf(views(rows), rows.length - 2)).toEqual({ end: rows.length, at: 'end-of-file' });
  });

  it('an aborted turn ends at turn_aborted: the compaction after it opens nothing and is left out', () => {
    const rows = sampleRollout({ id: SOURCE, cwd: '/work/app' }).take();
    const cut = cutAfterTurnOf(views(rows), indexOf(rows, 'Also rename'));
    expect(rows[cut.end - 1]).toContain('turn_aborted');
    expect(rows[cut.end]).toContain('"compacted"');
  });
});

describe('renderForkedRollout', () => {
  it('writes a new session_meta naming the source, then the source lines up to the cut', () => {
    const rows = twoTurns();
    const outcome = render(rows, indexOf(rows, 'Fixed in'));
    const copy = outcome.text.trimEnd().split('\n');
    const meta = JSON.parse(copy[0]!) as { timestamp: string; type: string; payload: Record<string, unknown> };
    expect(meta.type).toBe('session_meta');
    expect(meta.timestamp).toBe(AT.toISOString());
    expect(Object.keys(meta.payload).slice(0, 4)).toEqual(['id', 'forked_from_id', 'timestamp', 'cwd']);
    expect(meta.payload).toMatchObject({ id: FORK, forked_from_id: SOURCE, timestamp: AT.toISOString(), cwd: '/forks/f1', originator: 'codex_cli_rs', cli_version: '0.130.0' });
    expect(outcome.sourceThreadId).toBe(SOURCE);
    expect(copy).toHaveLength(outcome.cut.end);
    expect(copy.at(-1)).toContain('task_complete');
  });

  it('moves the source folder in turn settings and model-visible history, and keeps every event line byte for byte', () => {
    const rows = twoTurns();
    const outcome = render(rows, indexOf(rows, 'Fixed in'));
    const copy = outcome.text.trimEnd().split('\n');
    for (let index = 1; index < copy.length; index++) {
      const source = rows[index]!;
      const type = (JSON.parse(source) as { type: string }).type;
      if (type === 'event_msg' || !source.includes('/work/app')) expect(copy[index]).toBe(source);
      else expect(copy[index]).toBe(source.replaceAll('/work/app', '/forks/f1'));
    }
    const context = copy.find((row) => row.includes('"turn_context"'))!;
    expect(JSON.parse(context).payload.cwd).toBe('/forks/f1');
    expect(copy.find((row) => row.includes('"function_call"'))).toContain('\\"workdir\\":\\"/forks/f1\\"');
    // The UI's record of the command keeps the folder it ran in.
    expect(copy.find((row) => row.includes('exec_command_end'))).toContain('"cwd":"/work/app"');
  });

  it('does not move a longer folder that only starts with the source path', () => {
    const rows = new RolloutBuilder({ id: SOURCE, cwd: '/work/app' }).user('Compare with /work/app-old/x.ts').agent('ok').complete().take();
    const outcome = render(rows, 3);
    expect(outcome.text).toContain('/work/app-old/x.ts');
  });

  it('the copy passes the rollout rules under its Codex file name', () => {
    const rows = twoTurns();
    for (const index of [2, indexOf(rows, 'Fixed in'), rows.length - 1]) {
      const outcome = render(rows, index);
      expect(checkRollout(outcome.text, { fileName: `rollout-2026-12-01T10-00-00-${FORK}.jsonl` })).toMatchObject({ resumable: true, threadId: FORK, forkedFromId: SOURCE, findings: [] });
    }
  });

  it('leaves malformed source lines out, counted, and copies unknown line types as they are', () => {
    const rows = twoTurns();
    rows.splice(3, 0, '{"timestamp":"2026', JSON.stringify({ timestamp: 't', type: 'future_record_type', payload: {} }));
    const outcome = render(rows, indexOf(rows, 'Fixed in'));
    expect(outcome.dropped).toBe(1);
    expect(outcome.text).toContain('future_record_type');
  });

  it('refuses the session_meta node: no user turn precedes it, so there is nothing to continue', () => {
    const outcome = renderForkedRollout(views(twoTurns()), 0, { threadId: FORK, fromDir: null, toDir: '/f', createdAt: AT });
    expect(outcome).toEqual({ resumable: false, reason: 'no user turn precedes the node, so there is no conversation to resume' });
  });

  it('refuses a rollout without session_meta, or whose thread id is not a UUID', () => {
    const rows = twoTurns();
    expect(renderForkedRollout(views(rows.slice(1)), 2, { threadId: FORK, fromDir: null, toDir: '/f', createdAt: AT })).toMatchObject({ resumable: false });
    const named = [JSON.stringify({ ...JSON.parse(rows[0]!), payload: { ...JSON.parse(rows[0]!).payload, id: 'spawn-test-uuid' } }), ...rows.slice(1)];
    const outcome = renderForkedRollout(views(named), 2, { threadId: FORK, fromDir: null, toDir: '/f', createdAt: AT });
    expect(outcome.resumable).toBe(false);
    if (!outcome.resumable) expect(outcome.reason).toContain('thread id');
  });

  it('with no known source folder, the fork folder becomes the cwd and nothing else moves', () => {
    const rows = twoTurns();
    const outcome = render(rows, 5, null);
    expect(JSON.parse(outcome.text.split('\n')[0]!).payload.cwd).toBe('/forks/f1');
    expect(outcome.text.split('\n').slice(1, -1)).toEqual(rows.slice(1, outcome.cut.end));
  });
});
