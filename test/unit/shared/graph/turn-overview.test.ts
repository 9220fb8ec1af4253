import { describe, expect, it } from 'vitest';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { buildTurnOverview, forEachTurnIn, indexTurns, TURN_BRANCH_POINT, TURN_HEAD, TURN_PLAIN, TURN_TIP } from '../../../../shared/graph/turn-overview';
import { SessionBuilder } from './session-builder';

/** prompt → call → result → answer, returns the answer's id. */
function turn(s: SessionBuilder, parent: string | null, options: { error?: boolean } = {}): { prompt: string; answer: string } {
  const prompt = s.add('user', parent);
  const call = s.add('tool_call', prompt);
  const result = s.add(options.error === true ? 'error' : 'tool_result', call);
  return { prompt, answer: s.add('assistant', result) };
}

describe('buildTurnOverview', () => {
  it('one turn per prompt, with its step, tool and error counts', () => {
    const s = new SessionBuilder();
    const first = turn(s, null);
    const second = turn(s, first.answer, { error: true });
    const structure = buildSessionStructure(s.nodes);
    const overview = buildTurnOverview(structure);
    expect(overview.count).toBe(2);
    expect(Array.from(overview.start)).toEqual([structure.indexById.get(first.prompt), structure.indexById.get(second.prompt)]);
    expect(Array.from(overview.steps)).toEqual([4, 4]);
    expect(Array.from(overview.tools)).toEqual([1, 1]);
    expect(Array.from(overview.errors)).toEqual([0, 1]);
    expect(Array.from(overview.layout.row)).toEqual([0, 1]);
    expect(Array.from(overview.mark)).toEqual([TURN_PLAIN, TURN_PLAIN]);
  });

  it('a rewound prompt makes the turn before it a branch point and its last turn a tip in a lane of its own', () => {
    const s = new SessionBuilder();
    const first = turn(s, null);
    const main = turn(s, first.answer);
    turn(s, main.answer);
    const rewound = turn(s, first.answer);
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    expect(overview.count).toBe(4);
    expect(overview.mark[0]).toBe(TURN_BRANCH_POINT);
    expect(overview.branches[0]).toBe(2);
    const rewoundTurn = overview.turnOf[s.nodes.findIndex((node) => node.id === rewound.prompt)]!;
    expect(overview.mark[rewoundTurn]).toBe(TURN_TIP);
    expect(overview.layout.lane[rewoundTurn]).toBe(1);
    // The session's own line ends in the first lane: that end is not a branch tip.
    expect(overview.mark[2]).toBe(TURN_PLAIN);
  });

  it('a node Arbor added that starts a line (a fork) is a head turn', () => {
    const s = new SessionBuilder();
    const first = turn(s, null);
    turn(s, first.answer);
    const fork = s.add('system', first.answer, { id: 'fork-1' });
    const structure = buildSessionStructure(s.nodes, undefined, [{ nodeId: fork, kind: 'fork', dir: '/tmp/x' }]);
    const overview = buildTurnOverview(structure);
    const forkTurn = overview.turnOf[structure.indexById.get(fork)!]!;
    expect(overview.mark[forkTurn]).toBe(TURN_HEAD);
    expect(overview.mark[0]).toBe(TURN_BRANCH_POINT);
  });

  it('a retry (a prompt answered twice) marks its turn a branch point without a new turn', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    s.add('assistant', prompt);
    s.add('assistant', prompt);
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    expect(overview.count).toBe(1);
    expect(overview.mark[0]).toBe(TURN_BRANCH_POINT);
    expect(overview.branches[0]).toBe(2);
  });

  it('a subagent run counts in the turn that spawned it', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const spawn = s.add('tool_call', prompt);
    const agent = s.add('user', null, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: spawn }] });
    s.chain(agent, 4);
    s.add('tool_result', spawn);
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    expect(overview.count).toBe(1);
    expect(overview.steps[0]).toBe(s.nodes.length);
  });

  it('a 100k-node chain of turns stays linear time (no recursion on depth)', () => {
    const s = new SessionBuilder();
    let last: string | null = null;
    for (let k = 0; k < 25_000; k++) last = turn(s, last).answer;
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    expect(overview.count).toBe(25_000);
    expect(overview.layout.rows).toBe(25_000);
  });
});

describe('indexTurns / forEachTurnIn', () => {
  it('visits exactly the turns inside the rectangle', () => {
    const s = new SessionBuilder();
    const first = turn(s, null);
    let last = first.answer;
    for (let k = 0; k < 100; k++) last = turn(s, last).answer;
    for (let k = 0; k < 20; k++) turn(s, first.answer); // 20 rewinds off the first turn, lanes 1..20
    const overview = buildTurnOverview(buildSessionStructure(s.nodes));
    const grid = indexTurns(overview, 4, 8);
    const seen: number[] = [];
    forEachTurnIn(grid, overview, 2, 5.5, 0, 40, (t) => seen.push(t));
    const expected: number[] = [];
    for (let t = 0; t < overview.count; t++) {
      const lane = overview.layout.lane[t]!;
      const row = overview.layout.row[t]!;
      if (lane >= 2 && lane <= 5.5 && row >= 0 && row <= 40) expected.push(t);
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(seen.sort((a, b) => a - b)).toEqual(expected);
  });
});
