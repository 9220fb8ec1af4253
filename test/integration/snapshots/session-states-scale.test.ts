/**
 * `sessions.states` on a 10,000-node synthetic session: answering from the reconstruction's per-node marks
 * (knownOf / knownByNode) against the former way, building every node's state (stateOf per node). Prints both;
 * the service path itself is covered by file-history-service.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { createArborService } from '../../../electron/service/arbor-service';
import { STORE_FILE } from '../../../electron/service/service-core';
import { createWorkspaceStates } from '../../../electron/service/workspace-state';
import type { WorkspaceStateKnown } from '../../../shared/model';
import { writeDoubtedSession } from '../rewind/doubted-transcript';

const SESSION_ID = '0b7c1d2e-0000-4000-8000-000000010000';
const NODES = 10_000;

const time = async <T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
};

describe('sessions.states at scale', () => {
  let dir: string;
  let store: SessionStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-states-scale-'));
    const project = join(dir, 'projects', '-home-dev-app');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${SESSION_ID}.jsonl`), [...syntheticSessionLines(NODES, { seed: 11, sessionId: SESSION_ID, cwd: '/home/dev/app' })].join('\n') + '\n');
    // A small session with known and unknown nodes both (the large one, with shell commands throughout, is unknown everywhere).
    writeDoubtedSession(join(project, 'doubted.jsonl'), join(dir, 'workspace'));
    const service = await createArborService({ dataDir: join(dir, 'data'), host: 'cli', version: 'test', homeDir: join(dir, 'home'), env: {} });
    try {
      await service.api['import.run']({ paths: [join(dir, 'projects')] });
    } finally {
      await service.close();
    }
    store = openSessionStore(join(dir, 'data', STORE_FILE));
  }, 120_000);

  afterAll(() => {
    store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers from per-node marks, far faster than building every state, with the same answer', async () => {
    const nodes = store.getSessionNodes(SESSION_ID);
    expect(nodes.length).toBeGreaterThanOrEqual(NODES * 0.9);
    const states = createWorkspaceStates(store, () => {
      throw new Error('no snapshot is needed for transcript nodes');
    });
    const build = await time(() => states.stateOf(nodes[0]!.id)); // the reconstruction, shared by both ways
    const before = await time(async () => {
      const known: Record<string, WorkspaceStateKnown> = {};
      for (const node of nodes) known[node.id] = (await states.stateOf(node.id)).known;
      return known;
    });
    const after = await time(async () => Object.fromEntries(await states.knownOf(SESSION_ID)));

    console.info(
      `sessions.states, ${nodes.length} nodes: reconstruction ${build.ms.toFixed(0)} ms; ` +
        `stateOf per node ${before.ms.toFixed(0)} ms; knownOf ${after.ms.toFixed(1)} ms (${(before.ms / after.ms).toFixed(0)}× faster)`,
    );
    expect(after.value).toEqual(before.value);
    // Every file a shell command may have changed before its first read is in doubt wherever that command did
    // not run, and after it until read again: no node of this session is known.
    expect(new Set(Object.values(after.value))).toEqual(new Set(['unknown']));
    // Generous on a shared 2-core machine: measured about two orders of magnitude apart.
    expect(after.ms * 5).toBeLessThan(before.ms);
  }, 60_000);

  it('answers from per-node marks as stateOf does on a session with known and unknown nodes', async () => {
    const sessionId = store.listSessions({ limit: 10 }).sessions.find((session) => session.id !== SESSION_ID)!.id;
    const states = createWorkspaceStates(store, () => {
      throw new Error('no snapshot is needed for transcript nodes');
    });
    const known: Record<string, WorkspaceStateKnown> = {};
    for (const node of store.getSessionNodes(sessionId)) known[node.id] = (await states.stateOf(node.id)).known;
    expect(Object.fromEntries(await states.knownOf(sessionId))).toEqual(known);
    expect(new Set(Object.values(known))).toEqual(new Set(['reconstructed', 'unknown']));
  });
});
