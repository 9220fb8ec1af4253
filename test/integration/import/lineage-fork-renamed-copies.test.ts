/**
 * A fork whose copied lines got new uuids (issue 13), in every import order: the copy → original map is kept
 * in the store (migration 020), so an import that reads the fork's own lines after the copies were read by
 * an earlier one still hangs them from the parent's fork point. Before, the fork appended in pieces lost its
 * parent: its next line named a copy's uuid no node had.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openHarness, type Harness } from '../service/service-harness';
import { appendLines, builder, editTurn, random, writeLines } from './lineage-fixtures';

const PARENT = '5e1f0c2a-1b2c-4d3e-8f40-5a6b7c8d9e11';
const FORK = '1f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e12';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** The parent: two edits of a.txt; the fork copies the first turn under new uuids, then makes two of its own. */
function fixture() {
  const r = random(20);
  const parent = builder(r, PARENT);
  const first = editTurn(parent, 'create a.txt', 'a.txt', 'one\n');
  const parentHead = parent.take();
  const second = editTurn(parent, 'change a.txt', 'a.txt', 'two\n', 'one\n');
  const parentTail = parent.take();
  const fork = builder(r, FORK, { startMinutes: 30 });
  const copies = fork.forkCopies(parentHead, PARENT, { newUuids: true });
  const forkCopies = fork.take();
  const own = editTurn(fork, 'in the fork, create b.txt', 'b.txt', 'bee\n');
  const ownHead = fork.take();
  const more = editTurn(fork, 'in the fork, change b.txt', 'b.txt', 'bees\n', 'bee\n');
  return { parentHead, parentTail, forkCopies, ownHead, ownTail: fork.take(), copies, first, second, own, more };
}
type Fixture = ReturnType<typeof fixture>;

const parentPath = () => join(h.projects, '-home-dev-app', `${PARENT}.jsonl`);
const forkPath = () => join(h.projects, '-home-dev-app', `${FORK}.jsonl`);
const importPaths = async (...paths: string[]) => h.service.api['import.run']({ paths });

async function expectJoined(f: Fixture): Promise<void> {
  const fork = (await h.service.api['sessions.graph']({ sessionId: FORK })).nodes;
  const byId = new Map(fork.map((node) => [node.id, node]));
  // No copy's own uuid is a node: the copies are the parent's nodes, stored once.
  for (const copy of f.copies) expect(byId.has(copy)).toBe(false);
  expect(byId.get(f.own.prompt)).toMatchObject({ sessionId: FORK, parentId: f.first.reply });
  expect(byId.get(f.first.reply)).toMatchObject({ sessionId: PARENT });
  expect(byId.get(f.more.prompt)?.parentId).toBe(f.own.reply);
  const listed = (await h.service.api['sessions.list']({})).sessions;
  expect(listed.find((s) => s.id === FORK)?.links).toEqual([{ kind: 'fork', direction: 'earlier', sessionId: PARENT, title: 'create a.txt', nodeId: f.first.reply }]);
  // Reconstruction follows the fork into the parent's prefix.
  expect((await h.service.api['nodes.file']({ nodeId: f.more.result, path: 'a.txt' })).content).toBe('one\n');
  expect((await h.service.api['nodes.file']({ nodeId: f.more.result, path: 'b.txt' })).content).toBe('bees\n');
}

async function expectParentWhole(f: Fixture): Promise<void> {
  const parent = (await h.service.api['sessions.graph']({ sessionId: PARENT })).nodes;
  expect(parent.find((node) => node.id === f.second.prompt)?.parentId).toBe(f.first.reply);
  expect((await h.service.api['nodes.file']({ nodeId: f.second.result, path: 'a.txt' })).content).toBe('two\n');
}

it('fork with renamed copies: parent imported first, fork in a later import', async () => {
  const f = fixture();
  writeLines(parentPath(), [...f.parentHead, ...f.parentTail]);
  expect((await importPaths(parentPath())).problems).toEqual([]);
  writeLines(forkPath(), [...f.forkCopies, ...f.ownHead, ...f.ownTail]);
  expect((await importPaths(forkPath())).problems).toEqual([]);
  await expectJoined(f);
  await expectParentWhole(f);
});

it('fork with renamed copies: fork imported first, parent in a later import', async () => {
  const f = fixture();
  writeLines(forkPath(), [...f.forkCopies, ...f.ownHead, ...f.ownTail]);
  await importPaths(forkPath());
  writeLines(parentPath(), [...f.parentHead, ...f.parentTail]);
  expect((await importPaths(parentPath())).problems).toEqual([]);
  await expectJoined(f);
  await expectParentWhole(f);
});

it('fork with renamed copies: both in one import', async () => {
  const f = fixture();
  writeLines(parentPath(), [...f.parentHead, ...f.parentTail]);
  writeLines(forkPath(), [...f.forkCopies, ...f.ownHead, ...f.ownTail]);
  expect((await importPaths(h.projects)).problems).toEqual([]);
  await expectJoined(f);
  await expectParentWhole(f);
});

it('fork with renamed copies appended in pieces (copies, then its own lines) no longer loses its parent', async () => {
  const f = fixture();
  writeLines(parentPath(), [...f.parentHead, ...f.parentTail]);
  await importPaths(parentPath());
  writeLines(forkPath(), f.forkCopies);
  await importPaths(forkPath());
  appendLines(forkPath(), f.ownHead);
  expect((await importPaths(forkPath())).problems).toEqual([]);
  appendLines(forkPath(), f.ownTail);
  expect((await importPaths(forkPath())).problems).toEqual([]);
  await expectJoined(f);
});

it('fork with renamed copies appended in pieces before its parent is imported', async () => {
  const f = fixture();
  writeLines(forkPath(), f.forkCopies);
  await importPaths(forkPath());
  appendLines(forkPath(), [...f.ownHead, ...f.ownTail]);
  await importPaths(forkPath());
  writeLines(parentPath(), [...f.parentHead, ...f.parentTail]);
  expect((await importPaths(parentPath())).problems).toEqual([]);
  await expectJoined(f);
  await expectParentWhole(f);
});

it('fork with renamed copies: the parent appended after the fork was imported', async () => {
  const f = fixture();
  writeLines(parentPath(), f.parentHead);
  await importPaths(parentPath());
  writeLines(forkPath(), [...f.forkCopies, ...f.ownHead, ...f.ownTail]);
  await importPaths(forkPath());
  appendLines(parentPath(), f.parentTail);
  expect((await importPaths(parentPath())).problems).toEqual([]);
  await expectJoined(f);
  await expectParentWhole(f);
});
