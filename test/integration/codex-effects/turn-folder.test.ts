/**
 * A Codex session whose later turn runs in another folder (its `turn_context.cwd`, FORMATS.md §2.2): relative
 * patch paths resolve against their own turn's folder, and a rewind at a node of that turn writes there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchStep } from '../../../electron/demo/codex-file-rollout';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('Codex turn_context folder changes', () => {
  it('the second turn\'s relative patch lands in its own folder, and a rewind there writes there', async () => {
    const first = join(h.root, 'first');
    const second = join(h.root, 'second');
    mkdirSync(first, { recursive: true });
    mkdirSync(second, { recursive: true });
    const id = '019e0000-0000-7000-8000-000000000301';
    const builder = new RolloutBuilder({ id, cwd: first }).user('Add a here');
    // The envelope's paths are relative: the call line names no folder, so the turn's folder places them.
    patchStep(builder, first, [{ op: 'add', path: 'a.txt', content: 'first\n' }], { told: 'envelope' });
    builder.agent('Added.').complete().cd(second).user('Add a there');
    patchStep(builder, second, [{ op: 'add', path: 'a.txt', content: 'second\n' }], { told: 'envelope' });
    patchStep(builder, second, [{ op: 'update', path: 'a.txt', hunks: [{ lines: ['-second', '+second, edited'] }] }], { told: 'envelope' });
    builder.agent('Added and edited.').complete();
    const folder = join(h.root, 'codex');
    mkdirSync(folder, { recursive: true });
    await builder.write(join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
    await h.service.api['import.run']({ paths: [folder] });
    const { nodes } = await h.service.api['sessions.graph']({ sessionId: id });
    const last = nodes[nodes.length - 1]!;
    const files = await h.service.api['nodes.files']({ nodeId: last.id });
    const contents = await Promise.all(files.files.map(async (file) => [file.path, (await h.service.api['nodes.file']({ nodeId: last.id, path: file.path })).content]));
    expect(contents.sort()).toEqual([[join(first, 'a.txt'), 'first\n'], [join(second, 'a.txt'), 'second, edited\n']]);

    // Rewind to the Add of the second turn (its outcome line): the workspace is the second folder.
    writeFileSync(join(second, 'a.txt'), 'second, edited\n');
    const added = nodes.findIndex((node) => node.kind === 'tool_result' && node.timestamp !== null && nodes.slice(0, nodes.indexOf(node)).filter((other) => other.kind === 'user').length === 2);
    expect(added).toBeGreaterThan(0);
    const preview = await h.service.api['rewind.preview']({ nodeId: nodes[added]!.id });
    expect([preview.workspace, preview.written]).toEqual([second, ['a.txt']]);
    const firstTurn = nodes.find((node) => node.kind === 'assistant')!;
    expect((await h.service.api['rewind.preview']({ nodeId: firstTurn.id })).workspace).toBe(first);
  });

  it('nodes.folder (the session header) says the folder in force at a node: the first turn\'s, then the moved one', async () => {
    const first = join(h.root, 'first');
    const second = join(h.root, 'second');
    const id = '019e0000-0000-7000-8000-000000000302';
    const builder = new RolloutBuilder({ id, cwd: first }).user('Look here');
    builder.agent('Looked.').complete().cd(second).user('Look there');
    builder.agent('Looked there.').complete();
    const folder = join(h.root, 'codex');
    mkdirSync(folder, { recursive: true });
    await builder.write(join(folder, `rollout-2026-11-30T10-00-00-${id}.jsonl`));
    await h.service.api['import.run']({ paths: [folder] });
    const { session, nodes } = await h.service.api['sessions.graph']({ sessionId: id });
    expect(session.project).toBe(first);
    const firstReply = nodes.find((node) => node.kind === 'assistant')!;
    const lastReply = nodes.findLast((node) => node.kind === 'assistant')!;
    expect(await h.service.api['nodes.folder']({ nodeId: firstReply.id })).toEqual({ folder: first });
    expect(await h.service.api['nodes.folder']({ nodeId: lastReply.id })).toEqual({ folder: second });
  });
});
