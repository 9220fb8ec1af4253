/**
 * `continued-in {sessionId, continuedInSessionId}` (issue 13): a session moved to the background goes on under
 * a new id. The chain is followed and drawn as one line of work (each continuation under the last step of the
 * session before it), chains of three, and a continuation that was not imported is reported, not failing.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { lineageNote } from '../../../shared/session-links';
import { openHarness, type Harness } from '../service/service-harness';
import { builder, editTurn, random, talkTurn, writeLines } from './lineage-fixtures';

const A = '1a000000-0000-4000-8000-00000000000a';
const B = '2b000000-0000-4000-8000-00000000000b';
const C = '3c000000-0000-4000-8000-00000000000c';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

function chainFixture() {
  const r = random(7);
  const a = builder(r, A);
  const a1 = editTurn(a, 'start the parser', 'a.txt', 'one\n');
  const a2 = editTurn(a, 'and a notes file', 'c.txt', 'sea\n');
  a.continuedIn(B);
  const b = builder(r, B, { startMinutes: 20 });
  const b1 = editTurn(b, 'keep going in the background', 'a.txt', 'two\n', 'one\n');
  b.continuedIn(C);
  const c = builder(r, C, { startMinutes: 40 });
  const c1 = talkTurn(c, 'how far did we get?', 'a.txt says two.');
  return { a: a.take(), b: b.take(), c: c.take(), a1, a2, b1, c1 };
}

const path = (id: string) => join(h.projects, '-home-dev-app', `${id}.jsonl`);

it('continued-in: a chain of three sessions is one line of work, each continuation under the last step before it', async () => {
  const f = chainFixture();
  writeLines(path(A), f.a);
  writeLines(path(B), f.b);
  writeLines(path(C), f.c);
  const report = await h.service.api['import.run']({ paths: [h.projects] });
  expect(report.problems).toEqual([]);

  const listed = (await h.service.api['sessions.list']({})).sessions;
  expect(listed.map((session) => session.id).sort()).toEqual([A, B, C]);
  const middle = listed.find((session) => session.id === B)!;
  expect(middle.links).toEqual([
    { kind: 'continues', direction: 'earlier', sessionId: A, title: 'start the parser', nodeId: null },
    { kind: 'continues', direction: 'later', sessionId: C, title: 'how far did we get?', nodeId: null },
  ]);
  expect(lineageNote(middle.links![0]!)).toBe('continues start the parser');
  expect(lineageNote(middle.links![1]!)).toBe('continued in how far did we get?');

  for (const opened of [A, B, C]) {
    const nodes = (await h.service.api['sessions.graph']({ sessionId: opened })).nodes;
    expect(nodes.map((node) => node.sessionId)).toEqual([...Array<string>(8).fill(A), ...Array<string>(4).fill(B), ...Array<string>(2).fill(C)]);
    const continuations = nodes.filter((node) => node.extraEdges.some((edge) => edge.kind === 'continues'));
    expect(continuations.map((node) => [node.id, node.extraEdges])).toEqual([
      [f.b1.prompt, [{ kind: 'continues', nodeId: f.a2.reply }]],
      [f.c1.prompt, [{ kind: 'continues', nodeId: f.b1.reply }]],
    ]);
  }

  // A continuation's state is the end of the session it continues: c.txt, written only in A, is there in B and C.
  expect((await h.service.api['nodes.file']({ nodeId: f.b1.prompt, path: 'c.txt' })).content).toBe('sea\n');
  expect((await h.service.api['nodes.file']({ nodeId: f.b1.prompt, path: 'a.txt' })).content).toBe('one\n');
  expect((await h.service.api['nodes.file']({ nodeId: f.c1.reply, path: 'a.txt' })).content).toBe('two\n');
});

it('continued-in: a continuation that is not imported is reported, and the session imports and opens', async () => {
  const f = chainFixture();
  writeLines(path(A), f.a);
  const report = await h.service.api['import.run']({ paths: [path(A)] });
  expect(report.sessions.map((session) => session.id)).toEqual([A]);
  expect(report.problems).toEqual([{ file: path(A), line: 0, reason: expect.stringContaining(`continues in session ${B}, whose transcript is not imported`) }]);
  const [only] = (await h.service.api['sessions.list']({})).sessions;
  expect(only!.links).toEqual([{ kind: 'continues', direction: 'later', sessionId: B, title: null, nodeId: null }]);
  expect(lineageNote(only!.links![0]!)).toBe(`continued in ${B} (not imported)`);
  expect((await h.service.api['sessions.graph']({ sessionId: A })).nodes).toHaveLength(8);

  // Reported once: a later import that brings nothing new says nothing; the continuation, once imported, joins the line.
  expect((await h.service.api['import.run']({ paths: [path(A)] })).problems).toEqual([]);
  writeLines(path(B), f.b);
  expect((await h.service.api['import.run']({ paths: [path(B)] })).problems).toEqual([
    { file: path(B), line: 0, reason: expect.stringContaining(`continues in session ${C}`) },
  ]);
  const nodes = (await h.service.api['sessions.graph']({ sessionId: A })).nodes;
  expect(nodes.find((node) => node.id === f.b1.prompt)?.extraEdges).toEqual([{ kind: 'continues', nodeId: f.a2.reply }]);
});
