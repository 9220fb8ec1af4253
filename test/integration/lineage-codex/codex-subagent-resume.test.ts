/**
 * A Codex subagent rollout (`source.subagent`, `parent_thread_id`) folds under its parent's spawn_agent call,
 * like a Claude subagent run; a resume written into a new rollout continues the earlier thread (issue 14).
 * Each in both import orders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumedRollout, rolloutText, subagentRollout, withSpawn } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

const PARENT = '019e2000-0000-7000-8000-00000000000a';
const CHILD = '019e2000-0000-7000-8000-00000000000c';
const LATER = '019e2000-0000-7000-8000-00000000000d';
const CWD = '/home/dev/app';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

function folder(): string {
  const dir = join(h.root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function importOne(path: string) {
  return h.service.api['import.run']({ paths: [path] });
}

describe('a Codex subagent rollout', () => {
  for (const order of ['parent first', 'subagent first'] as const) {
    it(`folds under the spawn_agent call that started it (${order})`, async () => {
      const parentLines = new RolloutBuilder({ id: PARENT, cwd: CWD }).user('Survey the repository').agent('Asked a scout.').complete().take();
      const parent = withSpawn(parentLines, 4, CHILD, 'List the packages');
      const child = subagentRollout({ id: CHILD, cwd: CWD, parentThreadId: PARENT }, (b) => b.user('List the packages').agent('Three packages.'));
      const paths = { parent: join(folder(), `rollout-2026-11-30T09-00-00-${PARENT}.jsonl`), child: join(folder(), `rollout-2026-11-30T09-00-05-${CHILD}.jsonl`) };
      writeFileSync(paths.parent, rolloutText(parent));
      writeFileSync(paths.child, rolloutText(child));
      const [first, second] = order === 'parent first' ? [paths.parent, paths.child] : [paths.child, paths.parent];
      await importOne(first);
      expect((await importOne(second)).problems).toEqual([]);

      // One session: the subagent's steps are the parent's, on a side chain.
      const sessions = (await h.service.api['sessions.list']({})).sessions;
      expect(sessions.map((session) => session.id)).toEqual([PARENT]);
      const nodes = (await h.service.api['sessions.graph']({ sessionId: PARENT })).nodes;
      const call = nodes.find((node) => node.toolCalls.some((c) => c.id === 'call_spawn_1' && c.name === 'spawn_agent'))!;
      expect(call).toBeDefined();
      const agentNodes = nodes.filter((node) => node.sidechain);
      expect(agentNodes.map((node) => node.label)).toEqual(expect.arrayContaining(['List the packages', 'Three packages.']));
      const root = agentNodes.find((node) => node.parentId === null)!;
      expect(root.extraEdges).toContainEqual({ kind: 'subagent', nodeId: call.id });
    });
  }
});

describe('a Codex resume written into a new rollout', () => {
  for (const order of ['earlier first', 'later first'] as const) {
    // The earlier file had only lines the later one had copied: stored before, its session was never listed.
    it(`continues the earlier thread: its copy of the history is the earlier session's nodes, and a file of copied lines only is listed (${order})`, async () => {
      const earlier = new RolloutBuilder({ id: PARENT, cwd: CWD }).user('Start the parser').agent('Started.').complete().take();
      const later = resumedRollout(earlier, { id: LATER, cwd: CWD, start: new Date('2026-11-30T11:00:00.000Z') }, (b) => b.user('Go on with the parser').agent('Went on.').complete());
      const paths = { earlier: join(folder(), `rollout-2026-11-30T09-00-00-${PARENT}.jsonl`), later: join(folder(), `rollout-2026-11-30T11-00-00-${LATER}.jsonl`) };
      writeFileSync(paths.earlier, rolloutText(earlier));
      writeFileSync(paths.later, rolloutText(later));
      const [first, second] = order === 'earlier first' ? [paths.earlier, paths.later] : [paths.later, paths.earlier];
      await importOne(first);
      expect((await importOne(second)).problems).toEqual([]);

      const sessions = (await h.service.api['sessions.list']({})).sessions;
      const laterSession = sessions.find((session) => session.id === LATER)!;
      const earlierSession = sessions.find((session) => session.id === PARENT)!;
      expect(laterSession.links).toEqual([expect.objectContaining({ kind: 'continues', direction: 'earlier', sessionId: PARENT })]);
      expect(earlierSession.links).toEqual([expect.objectContaining({ kind: 'continues', direction: 'later', sessionId: LATER })]);
      expect(laterSession.nodeCount).toBe(2);
      const nodes = (await h.service.api['sessions.graph']({ sessionId: LATER })).nodes;
      expect(nodes.filter((node) => node.label === 'Start the parser').map((node) => node.sessionId)).toEqual([PARENT]);
      const goOn = nodes.find((node) => node.label === 'Go on with the parser')!;
      expect(nodes.find((node) => node.id === goOn.parentId)?.sessionId).toBe(PARENT);
    });
  }
});
