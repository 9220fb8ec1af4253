/**
 * Codex's `patch_apply_end` event as the record of a patch's file changes (FORMATS.md §2.2): when no envelope
 * for the call is on the call's line, the event's changes are the effects; when both are there, they are one
 * change, applied once. Generated rollouts in both history modes, through the real service.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchStep, type PatchStepOptions } from '../../../electron/demo/codex-file-rollout';
import { RolloutBuilder, type HistoryMode } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

let sequence = 0;

/** Adds a.txt, then updates it by context: the update applies only to the file as added, once. */
async function importedPatches(mode: HistoryMode, told: NonNullable<PatchStepOptions['told']>) {
  const id = `019e0000-0000-7000-8000-0000000001${String(++sequence).padStart(2, '0')}`;
  const workspace = join(h.root, `ws-${sequence}`);
  mkdirSync(workspace, { recursive: true });
  const builder = new RolloutBuilder({ id, cwd: workspace, mode }).user('Add a and edit it');
  patchStep(builder, workspace, [{ op: 'add', path: 'a.txt', content: 'one\ntwo\n' }], { told });
  patchStep(builder, workspace, [{ op: 'update', path: 'a.txt', hunks: [{ lines: [' one', '-two', '+three'] }] }], { told });
  patchStep(builder, workspace, [{ op: 'update', path: 'a.txt', moveTo: 'b.txt', hunks: [{ lines: [' one', '+four'] }] }], { told });
  builder.agent('Done.').complete();
  const folder = join(h.root, `codex-${sequence}`);
  mkdirSync(folder, { recursive: true });
  await builder.write(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
  const report = await h.service.api['import.run']({ paths: [folder] });
  expect(report.problems).toEqual([]);
  const { nodes } = await h.service.api['sessions.graph']({ sessionId: id });
  return { workspace, nodes };
}

describe.each(['legacy', 'paginated'] as const)('Codex patch_apply_end (%s history)', (mode) => {
  it.each(['event-only', 'both'] as const)('the changes told by %s are the file effects, applied once', async (told) => {
    const { workspace, nodes } = await importedPatches(mode, told);
    const last = nodes[nodes.length - 1]!;
    const files = await h.service.api['nodes.files']({ nodeId: last.id });
    const states = await Promise.all(files.files.map(async (file) => [file.path.slice(workspace.length + 1), file.known, (await h.service.api['nodes.file']({ nodeId: last.id, path: file.path })).content]));
    // Applied twice, the update would not find 'two' again and the file would be unknown.
    expect(states).toEqual([['b.txt', 'reconstructed', 'one\nfour\nthree\n']]);
  });
});

describe('Codex patch_apply_end without the call line telling the patch', () => {
  it('a patch whose call has no outcome line takes effect where its patch_apply_end stands', async () => {
    const id = '019e0000-0000-7000-8000-000000000199';
    const workspace = join(h.root, 'ws-unanswered');
    const builder = new RolloutBuilder({ id, cwd: workspace }).user('Add c');
    builder.emit('response_item', { type: 'custom_tool_call', status: 'completed', call_id: 'call_x', name: 'apply_patch', input: '' });
    builder.emit('event_msg', { type: 'patch_apply_end', call_id: 'call_x', success: true, changes: { [`${workspace}/c.txt`]: { type: 'add', content: 'see\n' } } });
    builder.agent('Added c.').complete();
    const folder = join(h.root, 'codex-unanswered');
    mkdirSync(folder, { recursive: true });
    await builder.write(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
    await h.service.api['import.run']({ paths: [folder] });
    const { nodes } = await h.service.api['sessions.graph']({ sessionId: id });
    const file = await h.service.api['nodes.file']({ nodeId: nodes[nodes.length - 1]!.id, path: join(workspace, 'c.txt') });
    expect([file.known, file.content]).toEqual(['reconstructed', 'see\n']);
  });
});
