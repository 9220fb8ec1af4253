/**
 * `forkedFrom: {sessionId, messageUuid}` on copied entries (`/branch`, `--fork-session`, issue 13): the fork's
 * file opens with copies of its parent's lines. The shared prefix is one set of nodes, the fork an edge from
 * the fork point into the fork's first own step, both sessions browsable on their own, whichever file is
 * imported first and in separate imports; reconstruction follows the edge.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../shared/model';
import { openHarness, type Harness } from '../service/service-harness';
import { builder, editTurn, random, writeLines } from './lineage-fixtures';

const PARENT = '6d1f0c2a-1b2c-4d3e-8f40-5a6b7c8d9e01';
const FORK = '0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e02';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** The parent: two edits of a.txt; the fork copies the first turn and then writes b.txt. */
function forkFixture(newUuids: boolean) {
  const r = random(newUuids ? 2 : 1);
  const parent = builder(r, PARENT);
  const first = editTurn(parent, 'create a.txt', 'a.txt', 'one\n');
  const prefix = parent.take();
  const second = editTurn(parent, 'change a.txt', 'a.txt', 'two\n', 'one\n');
  const parentLines = [...prefix, ...parent.take()];
  const fork = builder(r, FORK, { startMinutes: 30 });
  fork.forkCopies(prefix, PARENT, { newUuids });
  const own = editTurn(fork, 'in the fork, create b.txt', 'b.txt', 'bee\n');
  return { parentLines, forkLines: fork.take(), forkPoint: first.reply, first, second, own };
}

const paths = () => ({ parent: join(h.projects, '-home-dev-app', `${PARENT}.jsonl`), fork: join(h.projects, '-home-dev-app', `${FORK}.jsonl`) });

async function graph(sessionId: string): Promise<readonly NodeSummary[]> {
  return (await h.service.api['sessions.graph']({ sessionId })).nodes;
}

async function fileAt(nodeId: string, file: string): Promise<string | null> {
  return (await h.service.api['nodes.file']({ nodeId, path: file })).content;
}

async function expectForkModelled(fixture: ReturnType<typeof forkFixture>): Promise<void> {
  const listed = (await h.service.api['sessions.list']({})).sessions;
  expect(listed.map((session) => session.id).sort()).toEqual([FORK, PARENT].sort());
  const fork = listed.find((session) => session.id === FORK)!;
  const parent = listed.find((session) => session.id === PARENT)!;
  // The shared prefix is the parent's nodes, stored once: the fork counts only its own steps.
  expect(parent.nodeCount).toBe(8);
  expect(fork.nodeCount).toBe(4);
  expect(fork.links).toEqual([{ kind: 'fork', direction: 'earlier', sessionId: PARENT, title: 'create a.txt', nodeId: fixture.forkPoint }]);
  expect(parent.links).toEqual([{ kind: 'fork', direction: 'later', sessionId: FORK, title: 'in the fork, create b.txt', nodeId: fixture.forkPoint }]);

  // The fork is browsable on its own: the parent's path to the fork point, then its own steps under it.
  const forkGraph = await graph(FORK);
  const ids = forkGraph.map((node) => node.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.slice(0, 4)).toEqual([fixture.first.prompt, expect.any(String), fixture.first.result, fixture.forkPoint]);
  expect(forkGraph.slice(0, 4).every((node) => node.sessionId === PARENT)).toBe(true);
  const firstOwn = forkGraph[4]!;
  expect(firstOwn).toMatchObject({ id: fixture.own.prompt, sessionId: FORK, parentId: fixture.forkPoint });
  expect(firstOwn.extraEdges).toContainEqual({ kind: 'fork-of', nodeId: fixture.forkPoint });
  expect(ids).not.toContain(fixture.second.prompt);

  // The parent's graph shows the fork as a branch into the other session, from the fork point.
  const parentGraph = await graph(PARENT);
  const branch = parentGraph.filter((node) => node.sessionId === FORK);
  expect(branch.map((node) => node.id)).toEqual([fixture.own.prompt]);
  expect(branch[0]).toMatchObject({ parentId: fixture.forkPoint, extraEdges: [{ kind: 'fork-of', nodeId: fixture.forkPoint }] });
  expect(parentGraph.filter((node) => node.parentId === fixture.forkPoint).map((node) => node.id).sort()).toEqual([fixture.second.prompt, fixture.own.prompt].sort());

  // One set of nodes in search too: the copied prompt is found once, in the parent.
  await h.service.idle();
  const hits = (await h.service.api['search.query']({ query: 'create a.txt' })).hits;
  expect(hits.filter((hit) => hit.kind === 'user').map((hit) => [hit.nodeId, hit.sessionId])).toEqual([[fixture.first.prompt, PARENT]]);

  // Reconstruction: the fork's state at its first own step is the parent's at the fork point.
  expect(await fileAt(fixture.own.prompt, 'a.txt')).toBe('one\n');
  expect(await fileAt(fixture.own.result, 'b.txt')).toBe('bee\n');
  expect(await fileAt(fixture.own.result, 'a.txt')).toBe('one\n');
  expect(await fileAt(fixture.second.result, 'a.txt')).toBe('two\n');
}

describe('forkedFrom', () => {
  for (const newUuids of [false, true]) {
    const copies = newUuids ? 'copies with new uuids' : 'copies with the same uuids';
    it(`forkedFrom (${copies}): both files in one import`, async () => {
      const fixture = forkFixture(newUuids);
      writeLines(paths().parent, fixture.parentLines);
      writeLines(paths().fork, fixture.forkLines);
      const report = await h.service.api['import.run']({ paths: [h.projects] });
      expect(report.problems).toEqual([]);
      await expectForkModelled(fixture);
    });

    it(`forkedFrom (${copies}): the fork imported before its parent, in separate imports`, async () => {
      const fixture = forkFixture(newUuids);
      writeLines(paths().fork, fixture.forkLines);
      const first = await h.service.api['import.run']({ paths: [paths().fork] });
      // The parent's transcript is missing: reported, not failing, and the fork is whole on its own.
      expect(first.problems).toEqual([{ file: paths().fork, line: 0, reason: expect.stringContaining(`fork of session ${PARENT}`) }]);
      const alone = await graph(FORK);
      expect(alone.slice(0, 4).map((node) => node.id)).toEqual([fixture.first.prompt, expect.any(String), fixture.first.result, fixture.forkPoint]);
      expect(await fileAt(fixture.own.prompt, 'a.txt')).toBe('one\n');
      expect((await h.service.api['sessions.list']({})).sessions.map((session) => session.id)).toEqual([FORK]);

      writeLines(paths().parent, fixture.parentLines);
      const second = await h.service.api['import.run']({ paths: [paths().parent] });
      expect(second.problems).toEqual([]);
      await expectForkModelled(fixture);
    });
  }

  it('forkedFrom: the parent read first, then the fork, in one import', async () => {
    const fixture = forkFixture(false);
    // Folders named so that discovery reads the parent's file before the fork's (the other tests read the fork first).
    writeLines(join(h.projects, 'a-project', `${PARENT}.jsonl`), fixture.parentLines);
    writeLines(join(h.projects, 'b-project', `${FORK}.jsonl`), fixture.forkLines);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.problems).toEqual([]);
    await expectForkModelled(fixture);
  });
});
