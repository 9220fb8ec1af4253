/**
 * Codex pairs a call and its output by `call_id`. Real ids are unique, but a resumed rollout could repeat
 * them (and Arbor's own generator numbers them from 1 in each part): a result must pair with the nearest open
 * call of its id, so each call keeps its own outcome. Generated with Arbor's rollout builder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forkRollout, rolloutText } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

it('a resumed rollout that repeats call ids pairs each output with the nearest open call of its id', async () => {
  const id = '019e0000-0000-7000-8000-000000000401';
  const cwd = join(h.root, 'work');
  const first = new RolloutBuilder({ id, cwd }).user('Build it').command('make', { exitCode: 2, output: 'make: *** [all] Error 2' }).agent('It failed.').complete();
  // The resumed part numbers its calls from 1 again: its first call has the first part's id.
  const resumed = new RolloutBuilder({ id, cwd, start: new Date('2026-11-30T10:00:00.000Z') }).user('Again').command('make', { exitCode: 0, output: 'ok' }).agent('Built.').complete();
  const folder = join(h.root, 'codex');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`), [...first.take(), ...resumed.take().slice(1)].map((line) => `${line}\n`).join(''));
  expect((await h.service.api['import.run']({ paths: [folder] })).problems).toEqual([]);
  const { nodes } = await h.service.api['sessions.graph']({ sessionId: id });
  const calls = nodes.filter((node) => node.toolCalls.length > 0);
  // The repeated id is stored with its use count, so the two calls stay apart.
  expect(calls.map((node) => node.toolCalls.map((call) => call.id))).toEqual([['call_0001'], ['call_0001#2']]);
  expect(calls.map((node) => node.toolCalls[0]!.outcome)).toEqual(['error', 'ok']);
  // Each output line hangs under its own call.
  const results = nodes.filter((node) => node.kind === 'tool_result' || node.kind === 'error');
  expect(results.map((node) => node.parentId)).toEqual(calls.map((node) => node.id));
});

it('a fork whose own steps repeat its copied prefix\'s call ids keeps each call\'s own outcome, in the source and in the fork', async () => {
  const SOURCE = '019e0000-0000-7000-8000-000000000402';
  const FORK = '019e0000-0000-7000-8000-000000000403';
  const cwd = join(h.root, 'work');
  const first = new RolloutBuilder({ id: SOURCE, cwd }).user('Test it').command('npm test', { exitCode: 1, output: '1 failing' }).agent('One fails.').complete();
  const copiedLines = first.take().length - 1;
  const source = first.take();
  // The fork's own builder numbers from 1 again: its first call repeats the copied turn's call_0001.
  const fork = forkRollout(source, { id: FORK, cwd, forkedFromId: SOURCE, start: new Date('2026-11-30T10:00:00.000Z') }, (b) => b.user('Fix and test').command('npm test', { exitCode: 0, output: 'all pass' }).agent('All pass.').complete(), { copiedLines });
  const folder = join(h.root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`), rolloutText(source));
  writeFileSync(join(folder, `rollout-2026-11-30T10-00-00-${FORK}.jsonl`), rolloutText(fork));
  expect((await h.service.api['import.run']({ paths: [join(h.root, 'codex')] })).problems).toEqual([]);
  const outcomes = async (sessionId: string) =>
    (await h.service.api['sessions.graph']({ sessionId })).nodes.filter((node) => node.sessionId === sessionId && node.toolCalls.length > 0).map((node) => node.toolCalls[0]!.outcome);
  expect(await outcomes(SOURCE)).toEqual(['error']);
  expect(await outcomes(FORK)).toEqual(['ok']);
});
