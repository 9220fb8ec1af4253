/**
 * The ledger builder's replay rule on hand-made steps: flagged after a missing outcome, after a resume (another
 * file) and on another branch; not after a success on the same branch, nor after a failure; `through` marks the
 * steps after the node.
 */
import { describe, expect, it } from 'vitest';
import { commandOfCall, ledgerBuilder, type LedgerStep } from '../../../../../electron/snapshots/side-effects';
import type { ToolOutcome } from '../../../../../shared/model';

const PUSH = 'git push origin main';

/** Steps in a line a → b → c … unless `parents` says otherwise. */
function build(steps: readonly LedgerStep[], parents: Readonly<Record<string, string | null>> = {}, through: string | null = null) {
  const order = steps.map((step) => step.nodeId);
  const parentOf = (id: string) => (id in parents ? parents[id]! : (order[order.indexOf(id) - 1] ?? null));
  const builder = ledgerBuilder({ cwd: '/w', parentOf, through });
  for (const step of steps) builder.add(step);
  return builder.entries();
}

const step = (nodeId: string, command: string | null, outcome: ToolOutcome = 'ok', file = 'a.jsonl'): LedgerStep => ({
  nodeId,
  timestamp: null,
  file,
  calls: command === null ? [] : [{ id: `call-${nodeId}`, name: 'Bash', input: { command }, command, outcome }],
});

describe('ledger replays', () => {
  it('flags a repeat after a missing outcome', () => {
    const entries = build([step('a', PUSH, 'missing'), step('b', null), step('c', PUSH)]);
    expect(entries.map((entry) => entry.replayOf?.reason ?? null)).toEqual([null, 'missing-outcome']);
    expect(entries[1]!.replayOf?.toolUseId).toBe('call-a');
  });

  it('does not flag a repeat after a recorded success on the same branch, nor after a failure', () => {
    expect(build([step('a', PUSH), step('b', PUSH)]).map((entry) => entry.replayOf)).toEqual([null, null]);
    expect(build([step('a', PUSH, 'error'), step('b', PUSH)]).map((entry) => entry.replayOf)).toEqual([null, null]);
  });

  it('flags a repeat in another transcript file (a resume that wrote a new file)', () => {
    const entries = build([step('a', PUSH, 'ok', 'first.jsonl'), step('b', PUSH, 'ok', 'second.jsonl')]);
    expect(entries[1]!.replayOf?.reason).toBe('resume');
  });

  it('flags a repeat on another branch as a retry, unless the earlier one failed', () => {
    const parents = { root: null, a: 'root', b: 'root' };
    expect(build([step('root', null), step('a', PUSH), step('b', PUSH)], parents)[1]!.replayOf?.reason).toBe('retry');
    expect(build([step('root', null), step('a', PUSH, 'error'), step('b', PUSH)], parents)[1]!.replayOf).toBeNull();
  });

  it('answers from the nearest earlier request on the branch', () => {
    // missing, then ok, then again: the second was the replay; the third follows a success.
    const entries = build([step('a', PUSH, 'missing'), step('b', PUSH), step('c', PUSH)]);
    expect(entries.map((entry) => entry.replayOf?.reason ?? null)).toEqual([null, 'missing-outcome', null]);
  });

  it('lists outside effects without a replay key and skips local steps; marks steps after `through`', () => {
    const entries = build([step('a', 'curl https://example.com'), step('b', 'git status'), step('c', './deploy.sh')], {}, 'b');
    expect(entries.map((entry) => [entry.nodeId, entry.kinds, entry.effects, entry.afterThrough])).toEqual([
      ['a', ['network'], [], false],
      ['c', ['unknown'], [], true],
    ]);
  });
});

describe('commandOfCall (an export reads calls from their input)', () => {
  it('reads Claude Code Bash and every Codex shell tool, argv or string, and nothing else', () => {
    expect(commandOfCall('Bash', { command: PUSH })).toBe(PUSH);
    expect(commandOfCall('exec_command', { cmd: PUSH, workdir: '/w' })).toBe(PUSH);
    expect(commandOfCall('shell', { command: ['bash', '-lc', PUSH] })).toBe(PUSH);
    expect(commandOfCall('local_shell', { command: ['git', 'push', 'origin', 'main'] })).toBe(PUSH);
    expect(commandOfCall('Read', { command: PUSH })).toBeNull();
    expect(commandOfCall('mcp__github__create_issue', { title: 'x' })).toBeNull();
  });
});
