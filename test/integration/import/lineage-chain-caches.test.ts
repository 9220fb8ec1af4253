/**
 * Caches rebuilt down lineage chains (issue 13): when a session changes (appended, re-imported, retitled),
 * the sessions forked from it or continuing it, and theirs transitively, are told (sessions.changed) and
 * rebuilt: graphs, titles, list rows. A three-deep chain A → B → C (continued-in) with D forked from C:
 * before, C's cached graph kept drawing A as it was, since only its direct neighbours were checked.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openHarness, type Harness } from '../service/service-harness';
import { appendLines, builder, random, talkTurn, writeLines } from './lineage-fixtures';

const A = '11aa0000-0000-4000-8000-0000000000a1';
const B = '22bb0000-0000-4000-8000-0000000000b2';
const C = '33cc0000-0000-4000-8000-0000000000c3';
const D = '44dd0000-0000-4000-8000-0000000000d4';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const path = (id: string) => join(h.projects, '-home-dev-app', `${id}.jsonl`);

function chain() {
  const r = random(91);
  const a = builder(r, A);
  const a1 = talkTurn(a, 'start the parser', 'Started.');
  a.continuedIn(B);
  const aLines = a.take();
  const b = builder(r, B, { startMinutes: 10 });
  talkTurn(b, 'go on with the parser', 'Going on.');
  b.continuedIn(C);
  const c = builder(r, C, { startMinutes: 20 });
  const c1 = talkTurn(c, 'finish the parser', 'Finished.');
  const cLines = c.take();
  const d = builder(r, D, { startMinutes: 30 });
  d.forkCopies(cLines, C);
  talkTurn(d, 'try it another way', 'Tried.');
  // A grows after the others were imported (the user went back to it): a new turn, then a new title.
  a.last = a1.reply;
  const a2 = talkTurn(a, 'one more thing in the first part', 'Done.');
  const aMore = a.take();
  a.customTitle('Parser, part one');
  return { aLines, aMore, aTitle: a.take(), bLines: b.take(), cLines, dLines: d.take(), a2, c1 };
}

it('a three-deep chain is rebuilt when its first session is appended and retitled (graphs, titles, list rows, events)', async () => {
  const f = chain();
  writeLines(path(A), f.aLines);
  writeLines(path(B), f.bLines);
  writeLines(path(C), f.cLines);
  writeLines(path(D), f.dLines);
  expect((await h.service.api['import.run']({ paths: [h.projects] })).problems).toEqual([]);
  const before = await h.service.api['sessions.graph']({ sessionId: C });
  expect(before.nodes.map((node) => node.sessionId)).toEqual([A, A, B, B, C, C, D]); // D: the fork's first own step, a branch
  const forkBefore = await h.service.api['sessions.graph']({ sessionId: D });
  expect(forkBefore.nodes.map((node) => node.id)).not.toContain(f.a2.prompt);

  // A is appended: everything linked to it, however far down, is told and drawn anew.
  h.events['sessions.changed'].length = 0;
  appendLines(path(A), f.aMore);
  expect((await h.service.api['import.run']({ paths: [path(A)] })).problems).toEqual([]);
  expect(h.events['sessions.changed'].flatMap((event) => event.sessionIds).sort()).toEqual([A, B, C, D].sort());
  const after = await h.service.api['sessions.graph']({ sessionId: C });
  expect(after.nodes.map((node) => node.id)).toContain(f.a2.prompt);
  expect(after.nodes.find((node) => node.id === f.a2.prompt)).toMatchObject({ sessionId: A });

  // A is retitled: its neighbour's header and list row say the new title; the chain is told again.
  h.events['sessions.changed'].length = 0;
  appendLines(path(A), f.aTitle);
  await h.service.api['import.run']({ paths: [path(A)] });
  expect(h.events['sessions.changed'].flatMap((event) => event.sessionIds).sort()).toEqual([A, B, C, D].sort());
  const continues = { kind: 'continues', direction: 'earlier', sessionId: A, title: 'Parser, part one', nodeId: null };
  expect((await h.service.api['sessions.graph']({ sessionId: B })).session.links).toContainEqual(continues);
  const rows = (await h.service.api['sessions.list']({})).sessions;
  expect(rows.find((row) => row.id === B)?.links).toContainEqual(continues);
  expect(rows.find((row) => row.id === A)?.title).toBe('Parser, part one');
});
