/**
 * A Codex fork (`forked_from_id`, issue 14): the fork's rollout opens with copies of its source's lines (new
 * timestamps). The shared prefix is the source's nodes, stored once; the fork's graph is the source's path to the
 * fork point then its own steps; the source's graph shows the fork as a branch — in every import order, in
 * separate imports, and when the fork is appended in pieces.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkRollout, rolloutText } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import type { NodeSummary } from '../../../shared/model';
import { openHarness, type Harness } from '../service/service-harness';

const SOURCE = '019e1000-0000-7000-8000-00000000000a';
const FORK = '019e1000-0000-7000-8000-00000000000b';
const CWD = '/home/dev/app';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Source: two turns. The fork copies the first turn (up to its task_complete) and asks something else. */
function fixture(copySourceMeta = false) {
  const first = new RolloutBuilder({ id: SOURCE, cwd: CWD }).user('Fix the failing date test').command('npm test', { exitCode: 0, output: 'PASS' }).agent('Fixed.').complete();
  const copiedLines = first.take().length - 1;
  const source = first.user('Now rename the helper').agent('Renamed.').complete().take();
  const fork = forkRollout(
    source,
    { id: FORK, cwd: CWD, forkedFromId: SOURCE, start: new Date('2026-11-30T10:00:00.000Z') },
    (b) => b.user('Instead, add a test for leap years').agent('Added the leap-year test.').complete(),
    { copiedLines, copySourceMeta },
  );
  return { source, fork };
}

function paths(day = '30') {
  const folder = join(h.root, 'codex', 'sessions', '2026', '11', day);
  mkdirSync(folder, { recursive: true });
  return { source: join(folder, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`), fork: join(folder, `rollout-2026-11-30T10-00-00-${FORK}.jsonl`) };
}

async function graph(sessionId: string): Promise<readonly NodeSummary[]> {
  return (await h.service.api['sessions.graph']({ sessionId })).nodes;
}

async function expectForkLinked(): Promise<void> {
  const listed = (await h.service.api['sessions.list']({})).sessions;
  expect(listed.map((session) => session.id).sort()).toEqual([SOURCE, FORK].sort());
  const sourceGraph = await graph(SOURCE);
  const own = sourceGraph.filter((node) => node.sessionId === SOURCE);
  const forkPrompt = own.find((node) => node.label === 'Fix the failing date test')!;
  const sourceReply = own.find((node) => node.label.includes('Fixed.'))!;
  expect(forkPrompt).toBeDefined();
  // The fork point: the source's last copied step.
  const forkPoint = sourceReply.id;
  const fork = listed.find((session) => session.id === FORK)!;
  const source = listed.find((session) => session.id === SOURCE)!;
  expect(fork.links).toEqual([{ kind: 'fork', direction: 'earlier', sessionId: SOURCE, title: expect.any(String), nodeId: forkPoint }]);
  expect(source.links).toEqual([{ kind: 'fork', direction: 'later', sessionId: FORK, title: expect.any(String), nodeId: forkPoint }]);
  // Stored once: the fork counts only its own steps (prompt, reply).
  expect(fork.nodeCount).toBe(2);

  const forkGraph = await graph(FORK);
  const ids = forkGraph.map((node) => node.id);
  expect(new Set(ids).size).toBe(ids.length);
  const prefix = forkGraph.filter((node) => node.sessionId === SOURCE);
  expect(prefix.map((node) => node.id)).toEqual(own.slice(0, prefix.length).map((node) => node.id));
  expect(prefix.at(-1)!.id).toBe(forkPoint);
  const firstOwn = forkGraph.find((node) => node.sessionId === FORK)!;
  expect(firstOwn).toMatchObject({ label: 'Instead, add a test for leap years', parentId: forkPoint });
  expect(firstOwn.extraEdges).toContainEqual({ kind: 'fork-of', nodeId: forkPoint });
  expect(forkGraph.some((node) => node.label === 'Now rename the helper')).toBe(false);

  // The source's graph: the fork is a branch from the fork point, beside the source's own second turn.
  const branch = sourceGraph.filter((node) => node.sessionId === FORK);
  expect(branch.map((node) => node.label)).toEqual(['Instead, add a test for leap years']);
  const children = sourceGraph.filter((node) => node.parentId === forkPoint).map((node) => node.label).sort();
  expect(children).toEqual(['Instead, add a test for leap years', 'Now rename the helper']);

  await h.service.idle();
  const hits = (await h.service.api['search.query']({ query: 'failing date test' })).hits;
  expect(hits.filter((hit) => hit.kind === 'user').map((hit) => hit.sessionId)).toEqual([SOURCE]);
}

describe('a Codex fork shares its copied prefix with its source', () => {
  it('both rollouts in one import', async () => {
    const { source, fork } = fixture();
    writeFileSync(paths().source, rolloutText(source));
    writeFileSync(paths().fork, rolloutText(fork));
    const report = await h.service.api['import.run']({ paths: [join(h.root, 'codex')] });
    expect(report.problems).toEqual([]);
    await expectForkLinked();
  });

  it('the source imported first, then the fork, in separate imports', async () => {
    const { source, fork } = fixture();
    const p = paths();
    writeFileSync(p.source, rolloutText(source));
    writeFileSync(p.fork, rolloutText(fork));
    expect((await h.service.api['import.run']({ paths: [p.source] })).problems).toEqual([]);
    expect((await h.service.api['import.run']({ paths: [p.fork] })).problems).toEqual([]);
    await expectForkLinked();
  });

  it('the fork imported first, then its source, in separate imports (the copy repeats the source session_meta)', async () => {
    const { source, fork } = fixture(true);
    const p = paths();
    writeFileSync(p.source, rolloutText(source));
    writeFileSync(p.fork, rolloutText(fork));
    const first = await h.service.api['import.run']({ paths: [p.fork] });
    // The source is not imported yet: said once, and the fork already draws the shared prefix.
    expect(first.problems).toEqual([{ file: p.fork, line: 0, reason: expect.stringContaining(`fork of session ${SOURCE}`) }]);
    expect((await graph(FORK)).find((node) => node.sessionId === FORK)?.label).toBe('Instead, add a test for leap years');
    expect((await h.service.api['import.run']({ paths: [p.source] })).problems).toEqual([]);
    await expectForkLinked();
  });

  it('the source in another day folder of the same Codex home', async () => {
    const { source, fork } = fixture();
    writeFileSync(paths('29').source, rolloutText(source));
    writeFileSync(paths('30').fork, rolloutText(fork));
    expect((await h.service.api['import.run']({ paths: [join(h.root, 'codex')] })).problems).toEqual([]);
    await expectForkLinked();
  });

  for (const cut of [2, 6]) {
    it(`the fork appended in pieces (first piece: ${cut} lines)`, async () => {
      const { source, fork } = fixture();
      const p = paths();
      writeFileSync(p.source, rolloutText(source));
      writeFileSync(p.fork, rolloutText(fork.slice(0, cut)));
      expect((await h.service.api['import.run']({ paths: [join(h.root, 'codex')] })).problems).toEqual([]);
      appendFileSync(p.fork, rolloutText(fork.slice(cut)));
      expect((await h.service.api['import.run']({ paths: [join(h.root, 'codex')] })).problems).toEqual([]);
      await expectForkLinked();
    });
  }

  it('a fork whose source rollout is not on the disk is still linked, and says so', async () => {
    const { fork } = fixture();
    const p = paths();
    writeFileSync(p.fork, rolloutText(fork));
    const report = await h.service.api['import.run']({ paths: [p.fork] });
    expect(report.problems).toEqual([{ file: p.fork, line: 0, reason: expect.stringContaining(`fork of session ${SOURCE}`) }]);
    const listed = (await h.service.api['sessions.list']({})).sessions.find((session) => session.id === FORK)!;
    expect(listed.links).toEqual([{ kind: 'fork', direction: 'earlier', sessionId: SOURCE, title: null, nodeId: null }]);
  });
});
