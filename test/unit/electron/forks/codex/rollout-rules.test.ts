/**
 * The rollout rules on rollouts Arbor's generator writes (electron/demo/codex-rollout.ts): a whole one passes,
 * and each broken variant fails on its own rule with a reason that names what Codex would do.
 */
import { describe, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../../../electron/demo/codex-rollout';
import { checkRollout, type RolloutRule } from '../../../../../electron/forks/codex/rollout-rules';

const ID = '019e0000-0000-7000-8000-00000000a001';
const NAME = `rollout-2026-11-30T09-00-00-${ID}.jsonl`;

function whole(): RolloutBuilder {
  return new RolloutBuilder({ id: ID, cwd: '/work/app' })
    .user('Fix the failing date test')
    .reasoning('Look at the test first')
    .command('npm test -- dates', { exitCode: 0, output: 'PASS' })
    .agent('Done.')
    .complete();
}

const lines = (): string[] => whole().take();
const text = (rows: readonly string[]): string => rows.map((row) => `${row}\n`).join('');
const rules = (rolloutText: string, fileName: string | undefined = NAME): [RolloutRule, string][] =>
  checkRollout(rolloutText, fileName === undefined ? {} : { fileName }).findings.map((finding) => [finding.rule, finding.severity]);

type Line = { payload: Record<string, unknown> };

function edit(index: number, change: (value: Line) => void): string[] {
  const rows = lines();
  const value = JSON.parse(rows[index]!) as Line;
  change(value);
  rows[index] = JSON.stringify(value);
  return rows;
}

describe('checkRollout', () => {
  it('passes a whole generated rollout with its thread id', () => {
    const verdict = checkRollout(whole().text(), { fileName: NAME });
    expect(verdict).toEqual({ resumable: true, threadId: ID, forkedFromId: null, findings: [] });
  });

  it('reads forked_from_id', () => {
    const source = '019e0000-0000-7000-8000-00000000a000';
    const verdict = checkRollout(new RolloutBuilder({ id: ID, cwd: '/w', forkedFromId: source }).user('x').agent('y').complete().text());
    expect(verdict.forkedFromId).toBe(source);
    expect(verdict.findings).toEqual([]);
  });

  it('the sample rollout passes with the warnings of its aborted turn (a call without output)', () => {
    const verdict = checkRollout(sampleRollout({ id: ID, cwd: '/work/app' }).text(), { fileName: NAME });
    expect(verdict.resumable).toBe(true);
    expect(verdict.findings.map((finding) => finding.rule)).toEqual(['call-without-output']);
  });

  const broken: [string, () => string, RolloutRule, 'error' | 'warning'][] = [
    ['an empty file', () => '', 'empty', 'error'],
    ['a last line without its newline', () => whole().text().slice(0, -1), 'unterminated', 'error'],
    ['a first line that is not session_meta', () => text(lines().slice(1)), 'first-line', 'error'],
    ['a session_meta id that is not a UUID', () => text(edit(0, (v) => void (v.payload.id = 'thread-1'))), 'meta-id', 'error'],
    ['a session_meta without cwd', () => text(edit(0, (v) => void delete v.payload.cwd)), 'meta-fields', 'error'],
    ['a session_meta with a relative cwd', () => text(edit(0, (v) => void (v.payload.cwd = 'app'))), 'meta-fields', 'error'],
    ['a session_meta without cli_version', () => text(edit(0, (v) => void delete v.payload.cli_version)), 'meta-fields', 'error'],
    ['a forked_from_id naming the rollout itself', () => text(edit(0, (v) => void (v.payload.forked_from_id = ID))), 'forked-from', 'error'],
    ['a malformed line', () => text([...lines().slice(0, 3), '{"timestamp":"2026', ...lines().slice(3)]), 'skipped-line', 'warning'],
    ['a line without the envelope', () => text([...lines(), JSON.stringify({ type: 'event_msg', payload: {} })]), 'skipped-line', 'warning'],
    ['a turn_context without cwd', () => text(edit(2, (v) => void delete v.payload.cwd)), 'turn-context', 'warning'],
    ['a compaction without its message', () => text([...lines(), JSON.stringify({ timestamp: 't', type: 'compacted', payload: { replacement_history: [] } })]), 'compacted', 'warning'],
    ['an output without its call', () => text(lines().filter((row) => !row.includes('"type":"function_call"'))), 'output-without-call', 'warning'],
    ['a call without its output', () => text(lines().filter((row) => !row.includes('"function_call_output"'))), 'call-without-output', 'warning'],
    ['a turn that never ends', () => text(lines().slice(0, -1)), 'turn-left-open', 'warning'],
    ['a second turn without its turn_context', () => text(whole().user('And the other test').agent('Fixed too.').complete().take().filter((row, index) => index < 5 || !row.includes('"turn_context"'))), 'turn-without-context', 'warning'],
  ];
  for (const [what, make, rule, severity] of broken) {
    it(`fails ${what} on ${rule} (${severity})`, () => {
      const verdict = checkRollout(make(), { fileName: NAME });
      const found = verdict.findings.filter((finding) => finding.rule === rule);
      expect(found.map((finding) => finding.severity)).toEqual([severity]);
      expect(found[0]!.reason).toMatch(/Codex|thread id|absolute|rollout|model/);
      expect(verdict.resumable).toBe(severity === 'warning');
    });
  }

  it('fails a file named for another thread, or not named as Codex names rollouts', () => {
    expect(rules(whole().text(), `rollout-2026-11-30T09-00-00-019e0000-0000-7000-8000-00000000ffff.jsonl`)).toEqual([['file-name', 'error']]);
    expect(rules(whole().text(), `${ID}.jsonl`)).toEqual([['file-name', 'error']]);
    expect(rules(whole().text(), undefined)).toEqual([]);
  });

  it('counts the legacy echo of a prompt as one turn, not a turn without settings', () => {
    expect(rules(new RolloutBuilder({ id: ID, cwd: '/w' }).user('one').agent('a').complete().user('two').agent('b').complete().text())).toEqual([]);
  });
});
