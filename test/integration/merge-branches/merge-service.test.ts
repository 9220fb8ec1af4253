/**
 * Merging two branches through the service: a folder captured as the base, forked twice, each fork changed
 * differently, then `merge.preview` (statuses), `merge.file` (the three versions), `merge.apply` (conflicts
 * stop it; resolutions write the target; the merge node joins the graph with two parents), and undo.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, renameSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { MergePreview } from '../../../shared/operations';

let root: string;
let service: ArborService;
let baseNode: string;
let sessionId: string;
let oursNode: string;
let theirsNode: string;
let oursDir: string;
let theirsDir: string;

const lines = (count: number, change: Record<number, string> = {}): string =>
  Array.from({ length: count }, (_, i) => `${change[i + 1] ?? `line ${i + 1}`}\n`).join('');
const binary = (byte: number): Buffer => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, byte, 0x0a]);
const latin = (text: string): Buffer => Buffer.from(text, 'latin1');

function write(dir: string, path: string, content: string | Buffer): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-merge-branches-'));
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {}, now: () => new Date('2026-05-02T09:00:00.000Z') });
  const work = join(root, 'work');
  write(work, 'notes.txt', lines(12));
  write(work, 'both.txt', 'a\nb\nc\nd\ne\nf\ng\n');
  write(work, 'image.bin', binary(1));
  write(work, 'src/old-name.ts', 'export const x = 1;\nexport const y = 2;\n');
  write(work, 'gone.txt', 'bye\n');
  write(work, 'tool.sh', 'echo hi\n');
  write(work, 'latin.txt', latin('caf\xe9\nx\n'));
  const captured = await service.api['snapshots.capture']({ dir: work });
  baseNode = captured.node.id;
  sessionId = captured.node.sessionId;

  const ours = await service.api['fork.create']({ nodeId: baseNode, dir: join(root, 'ours') });
  const theirs = await service.api['fork.create']({ nodeId: baseNode, dir: join(root, 'theirs') });
  [oursNode, theirsNode, oursDir, theirsDir] = [ours.branch, theirs.branch, ours.dir, theirs.dir];

  write(oursDir, 'notes.txt', lines(12, { 2: 'line two (ours)' }));
  write(oursDir, 'both.txt', 'a\nB ours\nc\nd\ne\nf\ng\n');
  write(oursDir, 'image.bin', binary(2));
  renameSync(join(oursDir, 'src/old-name.ts'), join(oursDir, 'src/new-name.ts'));
  chmodSync(join(oursDir, 'tool.sh'), 0o755);
  write(oursDir, 'ours-only.txt', 'mine\n');
  write(oursDir, 'latin.txt', latin('caf\xe9\nours \xff\n'));

  write(theirsDir, 'notes.txt', lines(12, { 11: 'line eleven (theirs)' }));
  write(theirsDir, 'both.txt', 'a\nB theirs\nc\nd\ne\nf\ng\n');
  write(theirsDir, 'image.bin', binary(3));
  write(theirsDir, 'src/old-name.ts', 'export const x = 1;\nexport const y = 3;\n');
  unlinkSync(join(theirsDir, 'gone.txt'));
  write(theirsDir, 'tool.sh', 'echo bye\n');
  write(theirsDir, 'latin.txt', latin('caf\xe9\ntheirs\n'));
});
afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const preview = (): Promise<MergePreview> => service.api['merge.preview']({ nodeIdA: oursNode, nodeIdB: theirsNode });
const read = (path: string): string => readFileSync(join(oursDir, path), 'utf8');

describe('merge.preview', () => {
  it('merges the forks’ live folders over the node they were forked from', async () => {
    const merge = await preview();
    expect(merge.base).toBe(baseNode);
    expect(merge.into).toBe(oursDir);
    expect(merge.ours).toMatchObject({ nodeId: oursNode, dir: oursDir });
    expect(merge.theirs).toMatchObject({ nodeId: theirsNode, dir: theirsDir });
    // What the merge view titles the versions by: the base's label, each side's session.
    expect(merge.baseLabel).toMatch(/^Snapshot of .*work \(\d+ files\)$/);
    const listed = (await service.api['sessions.list']({})).sessions.find((session) => session.id === sessionId);
    expect(merge.ours.sessionTitle).toBe(listed?.title ?? null);
    expect(merge.theirs.sessionTitle).toBe(merge.ours.sessionTitle);
    const status = Object.fromEntries(merge.files.map((file) => [file.path, file]));
    expect(Object.keys(status).sort()).toEqual(['both.txt', 'gone.txt', 'image.bin', 'latin.txt', 'notes.txt', 'ours-only.txt', 'src/new-name.ts', 'src/old-name.ts', 'tool.sh']);
    expect(status['notes.txt']).toMatchObject({ status: 'clean', changedBy: 'both' });
    expect(status['both.txt']).toMatchObject({ status: 'conflicted', conflict: 'content', conflicts: 1 });
    expect(status['image.bin']).toMatchObject({ status: 'conflicted', conflict: 'binary', binary: true });
    expect(status['src/new-name.ts']).toMatchObject({ status: 'clean', changedBy: 'both', renamedFrom: 'src/old-name.ts' });
    expect(status['src/old-name.ts']).toMatchObject({ status: 'deleted', changedBy: 'ours' });
    expect(status['gone.txt']).toMatchObject({ status: 'deleted', changedBy: 'theirs' });
    expect(status['tool.sh']).toMatchObject({ status: 'clean', changedBy: 'both' });
    expect(status['ours-only.txt']).toMatchObject({ status: 'added', changedBy: 'ours' });
    expect(status['latin.txt']).toMatchObject({ status: 'conflicted', conflict: 'content' });
    expect(merge.conflicted).toBe(3);
    // Each side is its fork node, which hangs right below the base: its own steps are the fork itself.
    expect(merge.ours.messages.map((message) => message.nodeId)).toEqual([oursNode]);
  });

  it('gives a file’s three versions and the automatic result', async () => {
    const { token } = await preview();
    const both = await service.api['merge.file']({ token, path: 'both.txt' });
    expect(both).toMatchObject({ base: 'a\nb\nc\nd\ne\nf\ng\n', ours: 'a\nB ours\nc\nd\ne\nf\ng\n', theirs: 'a\nB theirs\nc\nd\ne\nf\ng\n', binary: false });
    expect(both.merged).toBe('a\n<<<<<<< ours\nB ours\n=======\nB theirs\n>>>>>>> theirs\nc\nd\ne\nf\ng\n');
    const image = await service.api['merge.file']({ token, path: 'image.bin' });
    expect(image).toEqual({ path: 'image.bin', base: null, ours: null, theirs: null, binary: true, merged: null });
    const renamed = await service.api['merge.file']({ token, path: 'src/new-name.ts' });
    expect(renamed.merged).toBe('export const x = 1;\nexport const y = 3;\n');
    await expect(service.api['merge.file']({ token, path: 'nope.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.api['merge.file']({ token: 'merge-unknown', path: 'both.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('merge.apply', () => {
  it('writes nothing while conflicts remain unresolved', async () => {
    const { token } = await preview();
    const before = read('both.txt');
    const outcome = await service.api['merge.apply']({ token, resolutions: [] });
    expect(outcome).toEqual({ status: 'conflicts', files: ['both.txt', 'image.bin', 'latin.txt'] });
    expect(read('both.txt')).toBe(before);
    expect(existsSync(join(oursDir, 'gone.txt'))).toBe(true);
  });

  it('stops when the target changed since the preview', async () => {
    const { token } = await preview();
    write(oursDir, 'notes.txt', lines(12, { 2: 'line two (ours)', 5: 'edited meanwhile' }));
    const outcome = await service.api['merge.apply']({ token, resolutions: [], conflictSide: 'ours' });
    expect(outcome).toMatchObject({ status: 'workspace-changed' });
    if (outcome.status === 'workspace-changed') expect(outcome.changed).toContain('notes.txt');
    write(oursDir, 'notes.txt', lines(12, { 2: 'line two (ours)' }));
  });

  it('writes the resolved merge, records a merge node with two parents, and undoes byte for byte', async () => {
    const { token } = await preview();
    const beforeBoth = read('both.txt');
    // Text that is not UTF-8 is shown byte for byte (latin1) and written back the same way.
    const latinSides = await service.api['merge.file']({ token, path: 'latin.txt' });
    expect(latinSides.ours).toBe('caf\xe9\nours \xff\n');
    const outcome = await service.api['merge.apply']({
      token,
      resolutions: [
        { path: 'both.txt', content: 'a\nB ours and theirs\nc\nd\ne\nf\ng\n' },
        { path: 'image.bin', take: 'theirs' },
        { path: 'latin.txt', content: `${latinSides.ours!}and theirs\n` },
      ],
    });
    if (outcome.status !== 'applied') throw new Error(`not applied: ${JSON.stringify(outcome)}`);
    expect(read('notes.txt')).toBe(lines(12, { 2: 'line two (ours)', 11: 'line eleven (theirs)' }));
    expect(read('both.txt')).toBe('a\nB ours and theirs\nc\nd\ne\nf\ng\n');
    expect(readFileSync(join(oursDir, 'image.bin'))).toEqual(binary(3));
    expect(read('src/new-name.ts')).toBe('export const x = 1;\nexport const y = 3;\n');
    expect(existsSync(join(oursDir, 'src/old-name.ts'))).toBe(false);
    expect(existsSync(join(oursDir, 'gone.txt'))).toBe(false);
    expect(read('tool.sh')).toBe('echo bye\n');
    expect(statSync(join(oursDir, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(read('ours-only.txt')).toBe('mine\n');
    expect(readFileSync(join(oursDir, 'latin.txt'))).toEqual(latin('caf\xe9\nours \xff\nand theirs\n'));
    expect(outcome.deleted).toEqual(['gone.txt']);

    const graph = await service.api['sessions.graph']({ sessionId });
    const mergeNode = graph.nodes.find((node) => node.id === outcome.mergeNode);
    expect(mergeNode?.parentId).toBe(oursNode);
    expect(mergeNode?.extraEdges).toEqual([{ kind: 'merge', nodeId: theirsNode }]);
    expect(graph.workspaceNodes?.find((node) => node.nodeId === outcome.mergeNode)).toEqual({ nodeId: outcome.mergeNode, kind: 'merge', dir: oursDir });
    // The preview was used up.
    await expect(service.api['merge.file']({ token, path: 'both.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const undone = await service.api['operations.undo']({ operationId: outcome.operation });
    expect(undone.status).toBe('applied');
    expect(read('both.txt')).toBe(beforeBoth);
    expect(read('gone.txt')).toBe('bye\n');
    expect(readFileSync(join(oursDir, 'image.bin'))).toEqual(binary(2));
    expect(existsSync(join(oursDir, 'src/new-name.ts'))).toBe(true);
    expect(statSync(join(oursDir, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(read('tool.sh')).toBe('echo hi\n');
    expect(readFileSync(join(oursDir, 'latin.txt'))).toEqual(latin('caf\xe9\nours \xff\n'));
  });
});
