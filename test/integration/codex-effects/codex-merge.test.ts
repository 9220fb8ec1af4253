/**
 * Merging two Codex branches (issue 14: "browse, search, reconstruct, rewind, fork …, merge"): a source rollout
 * adds a file whole, then changes one line; a fork of it (`forked_from_id`, copying the first turn) changes
 * another. The merge's base is the fork point, its three sides are the states the reconstruction gives from the
 * rollouts' patches (no folder of the session exists on this machine), both changes merge without a conflict,
 * and `merge.apply` writes the merged file into the target folder.
 * What broke: the effects walk forgot the folder where the graph crossed from the source's prefix into the
 * fork's own steps, so the fork's first relative patch was unplaceable and its file unknown from there.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { patchStep } from '../../../electron/demo/codex-file-rollout';
import { forkRollout, rolloutText } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

const SOURCE = '019e2000-0000-7000-8000-00000000000a';
const FORK = '019e2000-0000-7000-8000-00000000000b';
const CWD = '/home/dev/notes-app';
const lines = (change: Record<number, string> = {}): string => Array.from({ length: 12 }, (_, i) => `${change[i + 1] ?? `line ${i + 1}`}\n`).join('');

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

it('merges a Codex source and its fork over the fork point: the fork’s own relative patches keep the folder its source’s prefix was in', async () => {
  const first = patchStep(new RolloutBuilder({ id: SOURCE, cwd: CWD }).user('Write the notes file'), CWD, [{ op: 'add', path: 'notes.txt', content: lines() }])
    .agent('Wrote notes.txt.')
    .complete();
  const copiedLines = first.take().length - 1;
  const source = patchStep(first.user('Reword line two'), CWD, [{ op: 'update', path: 'notes.txt', hunks: [{ lines: [' line 1', '-line 2', '+line two (source)', ' line 3'] }] }])
    .agent('Reworded.')
    .complete()
    .take();
  const fork = forkRollout(
    source,
    { id: FORK, cwd: CWD, forkedFromId: SOURCE, start: new Date('2026-11-30T10:00:00.000Z') },
    // Codex's call ids are unique in a rollout; the builder numbers its own from 1, so the fork's skip the
    // source's two (call_0001, call_0002) that its copied turn carries.
    (b) => patchStep((b.nextCallId(), b.nextCallId(), b).user('Instead, reword line eleven'), CWD, [{ op: 'update', path: 'notes.txt', hunks: [{ lines: [' line 10', '-line 11', '+line eleven (fork)', ' line 12'] }] }]).agent('Reworded eleven.').complete(),
    { copiedLines },
  );
  const folder = join(h.root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`), rolloutText(source));
  writeFileSync(join(folder, `rollout-2026-11-30T10-00-00-${FORK}.jsonl`), rolloutText(fork));
  await h.service.api['import.run']({ paths: [join(h.root, 'codex')] });

  const own = async (sessionId: string) => (await h.service.api['sessions.graph']({ sessionId })).nodes.filter((node) => node.sessionId === sessionId);
  const sourceNodes = await own(SOURCE);
  const forkNodes = await own(FORK);
  const sourceHead = sourceNodes.at(-1)!;
  const forkHead = forkNodes.at(-1)!;
  const forkPoint = sourceNodes.find((node) => node.label.includes('Wrote notes.txt'))!;
  expect(forkPoint).toBeDefined();

  // The target: a folder holding ours' (the source's) state, as a user's checkout of it would.
  const target = join(h.root, 'target');
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, 'notes.txt'), lines({ 2: 'line two (source)' }));

  const preview = await h.service.api['merge.preview']({ nodeIdA: sourceHead.id, nodeIdB: forkHead.id, into: target });
  expect(preview.base).toBe(forkPoint.id);
  expect(preview.conflicted).toBe(0);
  expect(preview.files.map((file) => file.path)).toEqual(['notes.txt']);
  const sides = await h.service.api['merge.file']({ token: preview.token, path: 'notes.txt' });
  expect(sides.base).toBe(lines());
  expect(sides.ours).toBe(lines({ 2: 'line two (source)' }));
  expect(sides.theirs).toBe(lines({ 11: 'line eleven (fork)' }));
  expect(sides.merged).toBe(lines({ 2: 'line two (source)', 11: 'line eleven (fork)' }));

  const applied = await h.service.api['merge.apply']({ token: preview.token, resolutions: [] });
  expect(applied).toMatchObject({ status: 'applied' });
  expect('mergeNode' in applied && applied.mergeNode).toBeTruthy();
  expect(readFileSync(join(target, 'notes.txt'), 'utf8')).toBe(lines({ 2: 'line two (source)', 11: 'line eleven (fork)' }));
});
