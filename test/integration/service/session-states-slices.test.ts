/**
 * `sessions.states` reconstructs a whole session; on a 10k-node session that was 2.7 s of one task, and
 * `arbor serve` answered nothing else meanwhile. The reconstruction now reads in slices through the event
 * loop: other work runs between them, a cancel stops it there, and a cancelled build is not kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { SnapshotStore } from '../../../electron/git/object-store';
import type { ParsedNode } from '../../../electron/importers/transcript';
import { createWorkspaceStates, slicedReader } from '../../../electron/service/workspace-state';
import { CancelledError } from '../../../shared/errors';
import { inOrder, parsedNode, transcriptFile } from '../db/parsed-fixtures';

let dir: string;
let store: SessionStore;
let objects: SnapshotStore | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-states-slices-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
  objects = undefined;
});
afterEach(() => {
  objects?.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A first file whose later lines come with the next import (a grown file), then the session's own file. */
function appendToSession(ids: readonly string[]): void {
  const writer = store.beginFile(transcriptFile('/t/early.jsonl', { sessionHint: 'S1', size: 200 }));
  ids.forEach((id, k) => writer.node({ ...parsedNode(id, k === 0 ? 'c0' : ids[k - 1]!), line: 2 + k, offset: 100 + k }));
  writer.finish({ endOffset: 200, endLine: 2 + ids.length });
  store.linkChangedSessions();
}

/** `turns` tool calls, each with its result (a line the reconstruction reads). */
function importSession(turns: number): void {
  const nodes: ParsedNode[] = [];
  let parent: string | null = null;
  for (let k = 0; k < turns; k++) {
    nodes.push(parsedNode(`c${k}`, parent, { kind: 'tool_call', toolUses: [{ id: `tu${k}`, name: 'Read' }] }));
    nodes.push(parsedNode(`r${k}`, `c${k}`, { kind: 'tool_result', toolResults: [{ toolUseId: `tu${k}`, isError: false }] }));
    parent = `r${k}`;
  }
  // A file that sorts first, with one line so far (appendToSession grows it).
  const early = store.beginFile(transcriptFile('/t/early.jsonl', { sessionHint: 'S1', size: 100 }));
  early.node({ ...parsedNode('early-1', null), line: 1, offset: 0 });
  early.finish({ endOffset: 100, endLine: 2 });
  const writer = store.beginFile(transcriptFile('/t/s.jsonl', { sessionHint: 'S1' }));
  for (const node of inOrder(nodes)) writer.node(node);
  writer.finish({ endOffset: 100, endLine: nodes.length + 1 });
  store.linkChangedSessions();
}

const statesOf = (sliceMs: number) => createWorkspaceStates(store, () => (objects ??= SnapshotStore.open({ dataDir: join(dir, 'data') })), { sliceMs });

/** Counts event-loop turns until `work` settles. */
async function turnsDuring<T>(work: Promise<T>): Promise<{ turns: number; result: T }> {
  let done = false;
  let turns = 0;
  const counting = (async () => {
    while (!done) {
      await nextTurn();
      turns++;
    }
  })();
  try {
    return { result: await work, turns };
  } finally {
    done = true;
    await counting;
  }
}

describe('sessions.states in slices', () => {
  it('lets other work run while it reconstructs a session (it held arbor serve for seconds)', async () => {
    importSession(300);
    const { turns, result } = await turnsDuring(statesOf(0).knownOf('S1'));
    expect(result.size).toBe(601);
    // Every read after the first came through the event loop (300 result lines are read), and the node pages too.
    expect(turns).toBeGreaterThanOrEqual(300);
    // The same answer as one long slice gives.
    expect(new Map(await statesOf(60_000).knownOf('S1'))).toEqual(new Map(result));
  });

  it('stops at a slice when cancelled, and a later call builds it afresh', async () => {
    importSession(300);
    const states = statesOf(0);
    const controller = new AbortController();
    const cancelled = states.knownOf('S1', controller.signal);
    await nextTurn();
    await nextTurn();
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    expect((await states.knownOf('S1')).size).toBe(601);
  });

  it('a session changed by an import between two pages of its nodes is read again, not half-seen', async () => {
    importSession(30);
    let pagesRead = 0;
    let imported = false;
    const racing: SessionStore = {
      ...store,
      getSessionNodesPage(sessionId, after, limit) {
        if (++pagesRead === 2 && !imported) {
          imported = true;
          // The grown file's new lines sort before the page being read: a reader going on would miss them.
          appendToSession(['late-c', 'late-r']);
          states.forget(['S1']); // as the service does on sessions.changed
        }
        return store.getSessionNodesPage(sessionId, after, limit);
      },
    };
    const states = createWorkspaceStates(racing, () => (objects ??= SnapshotStore.open({ dataDir: join(dir, 'data') })), { sliceMs: 0, pageRows: 8 });
    const known = await states.knownOf('S1');
    expect(imported).toBe(true);
    expect([...known.keys()].sort()).toEqual(store.getSessionNodes('S1').map((node) => node.id).sort());
    expect(known.has('late-r')).toBe(true);
  });

  it('answers reads synchronously within a slice', async () => {
    const reads: string[] = [];
    const read = slicedReader((id) => (reads.push(id), `line of ${id}`), undefined, 60_000);
    expect(read('a')).toBe('line of a');
    const late = slicedReader((id) => `line of ${id}`, undefined, 0);
    await nextTurn();
    const answer = late('b');
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe('line of b');
    expect(reads).toEqual(['a']);
  });

  it('in the background rests after each slice as long as it ran, with the same answer (states took half the cores from the first view)', async () => {
    importSession(60);
    const rests: number[] = [];
    const read = slicedReader((id) => `line of ${id}`, undefined, 0, (ran) => (rests.push(ran), 5));
    await nextTurn();
    const started = performance.now();
    expect(await read('a')).toBe('line of a');
    expect(performance.now() - started).toBeGreaterThanOrEqual(4);
    expect(rests).toHaveLength(1);
    expect(rests[0]).toBeGreaterThanOrEqual(0);
    // A foreground reader never rests.
    const foreground = slicedReader((id) => `line of ${id}`, undefined, 0);
    await nextTurn();
    expect(await foreground('b')).toBe('line of b');
    expect(new Map(await statesOf(0).knownOf('S1', undefined, { pace: 'background' }))).toEqual(new Map(await statesOf(60_000).knownOf('S1')));
  });

  it('a node state asked for during a background build is answered, and the build still completes', async () => {
    importSession(200);
    const states = statesOf(0);
    const background = states.knownOf('S1', undefined, { pace: 'background' });
    const state = await states.stateOf('r199');
    expect(state.node.id).toBe('r199');
    expect((await background).size).toBe(401);
  });
});
