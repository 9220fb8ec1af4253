/**
 * Session identity (issue 13): a transcript file named after its own session may open with a few lines whose
 * `sessionId` is the session before it (a plan accepted, the context cleared). It used to be stored whole as
 * the previous session, and `arbor show <its own id>` answered NOT_FOUND. A file is its own session, linked
 * to the previous one; two distinct sessions are never merged — imported alone, after the previous session,
 * before it, and appended in pieces.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ArborError } from '../../../shared/errors';
import { openHarness, type Harness } from '../service/service-harness';
import { appendLines, builder, editTurn, random, talkTurn, writeLines } from './lineage-fixtures';

const PREVIOUS = '5e000000-0000-4000-8000-00000000000e';
const NEXT = '6f000000-0000-4000-8000-00000000000f';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

function fixture() {
  const r = random(21);
  const previous = builder(r, PREVIOUS);
  talkTurn(previous, 'plan the importer', 'Here is the plan.');
  const next = builder(r, NEXT, { startMinutes: 10 });
  // The plan accepted with a cleared context: the new file's first lines still carry the previous id.
  const opening = next.withSessionId(PREVIOUS, () => talkTurn(next, 'Implement the following plan: the importer', 'On it.'));
  const openingLines = next.take();
  const own = editTurn(next, 'now write the reader', 'reader.ts', 'export {};\n');
  return { previous: previous.take(), openingLines, ownLines: next.take(), opening, own };
}

const path = (id: string) => join(h.projects, '-home-dev-app', `${id}.jsonl`);

async function listed(): Promise<Record<string, number>> {
  const sessions = (await h.service.api['sessions.list']({})).sessions;
  return Object.fromEntries(sessions.map((session) => [session.id, session.nodeCount]));
}

async function expectOwnSession(previousImported: boolean): Promise<void> {
  const graph = await h.service.api['sessions.graph']({ sessionId: NEXT });
  const own = graph.nodes.filter((node) => node.sessionId === NEXT);
  expect(own).toHaveLength(6);
  // The session before it is drawn first, as one line of work: its first step follows that one's last.
  const before = graph.nodes.filter((node) => node.sessionId !== NEXT);
  expect(before.map((node) => node.sessionId)).toEqual(previousImported ? [PREVIOUS, PREVIOUS] : []);
  expect(graph.nodes.slice(0, before.length)).toEqual(before);
  expect(own[0]!.extraEdges).toEqual(previousImported ? [{ kind: 'follows', nodeId: before.at(-1)!.id }] : []);
  expect(graph.session.links).toEqual([
    { kind: 'follows', direction: 'earlier', sessionId: PREVIOUS, title: previousImported ? 'plan the importer' : null, nodeId: null },
  ]);
}

it('session identity: a file whose first lines carry the previous session id, imported alone, is its own session', async () => {
  const f = fixture();
  writeLines(path(NEXT), [...f.openingLines, ...f.ownLines]);
  const report = await h.service.api['import.run']({ paths: [path(NEXT)] });
  expect(report.sessions.map((session) => session.id)).toEqual([NEXT]);
  expect(report.problems).toEqual([{ file: path(NEXT), line: 0, reason: expect.stringContaining(`follows session ${PREVIOUS}`) }]);
  expect(await listed()).toEqual({ [NEXT]: 6 });
  await expectOwnSession(false);
  await expect(h.service.api['sessions.graph']({ sessionId: PREVIOUS })).rejects.toSatisfy((error) => error instanceof ArborError && error.code === 'NOT_FOUND');
});

it('session identity: imported after the previous session, the two stay apart and linked', async () => {
  const f = fixture();
  writeLines(path(PREVIOUS), f.previous);
  await h.service.api['import.run']({ paths: [path(PREVIOUS)] });
  writeLines(path(NEXT), [...f.openingLines, ...f.ownLines]);
  expect((await h.service.api['import.run']({ paths: [path(NEXT)] })).problems).toEqual([]);
  expect(await listed()).toEqual({ [PREVIOUS]: 2, [NEXT]: 6 });
  await expectOwnSession(true);
  const previous = (await h.service.api['sessions.graph']({ sessionId: PREVIOUS })).session;
  expect(previous.links).toEqual([{ kind: 'follows', direction: 'later', sessionId: NEXT, title: 'Implement the following plan: the importer', nodeId: null }]);
});

it('session identity: imported before the previous session, the previous one does not join it', async () => {
  const f = fixture();
  writeLines(path(NEXT), [...f.openingLines, ...f.ownLines]);
  writeLines(path(PREVIOUS), f.previous);
  await h.service.api['import.run']({ paths: [path(NEXT)] });
  await h.service.api['import.run']({ paths: [path(PREVIOUS)] });
  expect(await listed()).toEqual({ [PREVIOUS]: 2, [NEXT]: 6 });
  await expectOwnSession(true);
});

it('session identity: appended in pieces (first only the previous session\'s lines), it is still its own session', async () => {
  const f = fixture();
  writeLines(path(NEXT), f.openingLines);
  await h.service.api['import.run']({ paths: [path(NEXT)] });
  expect(Object.keys(await listed())).toEqual([NEXT]);
  appendLines(path(NEXT), f.ownLines);
  await h.service.api['import.run']({ paths: [path(NEXT)] });
  writeLines(path(PREVIOUS), f.previous);
  await h.service.api['import.run']({ paths: [path(PREVIOUS)] });
  expect(await listed()).toEqual({ [PREVIOUS]: 2, [NEXT]: 6 });
  await expectOwnSession(true);
});
