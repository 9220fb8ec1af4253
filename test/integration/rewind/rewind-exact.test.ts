/**
 * Rewind to an exact snapshot (`snapshots.capture`) through the service, on random workspaces (seeded):
 * after random changes, the rewind brings back exactly the snapshot's files (content, executable bit,
 * symlinks), leaves ignored files alone, and undo restores the changed workspace byte for byte.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { Random } from '../../../shared/random';
import { describeFiles, readAllFiles, type DiskFile } from './workspace-files';

const WORKSPACES = 20;

let root: string;
let service: ArborService;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-rewind-exact-'));
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {}, now: () => new Date('2026-05-02T09:00:00.000Z') });
});
afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const isIgnored = (path: string): boolean => path.endsWith('.log') || path.startsWith('build/');

function randomContent(random: Random): Buffer {
  switch (random.int(0, 4)) {
    case 0:
      return Buffer.from([0xff, 0x00, random.int(0, 255), 0xfe, 0x80]); // binary, invalid UTF-8
    case 1:
      return Buffer.from(`line ${random.hex(6)}\r\nsecond\r\n`); // CRLF
    case 2:
      return Buffer.from(`\ufeffwith a BOM ${random.base62(10)}\n`);
    case 3:
      return Buffer.alloc(0);
    default:
      return Buffer.from(`${random.base62(random.int(1, 200))}\n`);
  }
}

function randomPath(random: Random): string {
  const depth = random.int(0, 2);
  const folders = Array.from({ length: depth }, () => random.pick(['src', 'lib', 'docs', 'a', 'b']));
  return [...folders, `${random.pick(['index', 'util', 'readme', 'data', 'x'])}${random.int(0, 9)}.${random.pick(['ts', 'md', 'bin', 'txt'])}`].join('/');
}

function put(workspace: string, path: string, bytes: Buffer, executable = false): void {
  const full = join(workspace, path);
  mkdirSync(dirname(full), { recursive: true });
  rmSync(full, { force: true });
  writeFileSync(full, bytes);
  chmodSync(full, executable ? 0o755 : 0o644);
}

function generate(workspace: string, random: Random): void {
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, '.gitignore'), '*.log\nbuild/\n');
  for (let i = random.int(5, 25); i > 0; i--) put(workspace, randomPath(random), randomContent(random), random.chance(0.2));
  put(workspace, 'debug.log', Buffer.from(`log ${random.hex(8)}\n`));
  put(workspace, 'build/out.js', Buffer.from(`built ${random.hex(8)}\n`));
  if (random.chance(0.5)) symlinkSync('.gitignore', join(workspace, `link${random.int(0, 9)}`));
}

function change(workspace: string, random: Random): void {
  const files = [...readAllFiles(workspace).keys()].filter((path) => !isIgnored(path) && path !== '.gitignore');
  for (const path of files) {
    const roll = random.next();
    if (roll < 0.2) put(workspace, path, randomContent(random), random.chance(0.2));
    else if (roll < 0.3) unlinkSync(join(workspace, path));
    else if (roll < 0.35 && !path.startsWith('link')) chmodSync(join(workspace, path), 0o755);
  }
  for (let i = random.int(1, 4); i > 0; i--) put(workspace, `new/${randomPath(random)}`, randomContent(random));
  // Ignored files change too: the rewind must leave them as they are now.
  put(workspace, 'debug.log', Buffer.from(`later log ${random.hex(8)}\n`));
  put(workspace, 'build/extra.js', Buffer.from('more build output\n'));
}

const withoutIgnored = (files: ReadonlyMap<string, DiskFile>): Map<string, DiskFile> => new Map([...files].filter(([path]) => !isIgnored(path)));
const onlyIgnored = (files: ReadonlyMap<string, DiskFile>): Map<string, DiskFile> => new Map([...files].filter(([path]) => isIgnored(path)));

describe('rewind to an exact snapshot', () => {
  it(`restores the snapshot's files and undo restores the changes, on ${WORKSPACES} random workspaces`, async () => {
    for (let seed = 1; seed <= WORKSPACES; seed++) {
      const random = new Random(seed);
      const workspace = join(root, `workspace-${seed}`);
      generate(workspace, random);
      const captured = await service.api['snapshots.capture']({ dir: workspace });
      const atSnapshot = readAllFiles(workspace);
      // Let the capture's racy-timestamp window pass, as a user's later edits would.
      await new Promise((resolve) => setTimeout(resolve, 25));
      change(workspace, random);
      const changed = readAllFiles(workspace);

      const preview = await service.api['rewind.preview']({ nodeId: captured.node.id });
      expect(preview.known).toBe('exact');
      expect(preview.workspace).toBe(workspace);
      for (const path of [...preview.written, ...preview.created, ...preview.deleted]) expect(isIgnored(path), path).toBe(false);
      const outcome = await service.api['rewind.apply']({ nodeId: captured.node.id, token: preview.token });
      if (outcome.status !== 'applied') throw new Error(`seed ${seed}: ${JSON.stringify(outcome)}`);
      const rewound = readAllFiles(workspace);
      expect(describeFiles(withoutIgnored(rewound)), `seed ${seed}`).toEqual(describeFiles(withoutIgnored(atSnapshot)));
      expect(describeFiles(onlyIgnored(rewound)), `seed ${seed}`).toEqual(describeFiles(onlyIgnored(changed)));

      // A second preview has nothing left to do.
      const again = await service.api['rewind.preview']({ nodeId: captured.node.id });
      expect([...again.written, ...again.created, ...again.deleted]).toEqual([]);

      const undone = await service.api['operations.undo']({ operationId: outcome.operation });
      expect(undone.status, `seed ${seed}`).toBe('applied');
      expect(describeFiles(readAllFiles(workspace)), `seed ${seed}`).toEqual(describeFiles(changed));
    }
  });

  it('lists a stale token’s changed paths and writes nothing', async () => {
    const random = new Random(999);
    const workspace = join(root, 'workspace-stale');
    generate(workspace, random);
    put(workspace, 'keep.txt', Buffer.from('at the snapshot\n'));
    const captured = await service.api['snapshots.capture']({ dir: workspace });
    await new Promise((resolve) => setTimeout(resolve, 25));
    put(workspace, 'keep.txt', Buffer.from('changed once\n'));
    const preview = await service.api['rewind.preview']({ nodeId: captured.node.id });
    expect(preview.written).toContain('keep.txt');
    put(workspace, 'keep.txt', Buffer.from('changed again, after the preview\n'));
    const before = readAllFiles(workspace);
    const outcome = await service.api['rewind.apply']({ nodeId: captured.node.id, token: preview.token });
    expect(outcome).toEqual({ status: 'workspace-changed', changed: ['keep.txt'] });
    expect(describeFiles(readAllFiles(workspace))).toEqual(describeFiles(before));
    const listed = await service.api['operations.list']({ workspace });
    expect(listed.operations).toEqual([]);
  });

  it('reports how far the preview got through the workspace, and stops when cancelled', async () => {
    const random = new Random(4242);
    const workspace = join(root, 'workspace-progress');
    generate(workspace, random);
    const captured = await service.api['snapshots.capture']({ dir: workspace });
    put(workspace, 'keep.txt', Buffer.from('changed\n'));
    const seen: { operation: string; phase: string; done: number; total: number }[] = [];
    const stop = service.events.on('operation.progress', (event) => seen.push(event));
    try {
      await service.api['rewind.preview']({ nodeId: captured.node.id });
    } finally {
      stop();
    }
    const scans = seen.filter((event) => event.phase === 'reading the workspace');
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.at(-1)!.done).toBe(scans.at(-1)!.total);
    expect(scans.every((event) => event.operation.startsWith('preview-'))).toBe(true);
    const controller = new AbortController();
    controller.abort();
    await expect(service.api['rewind.preview']({ nodeId: captured.node.id }, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('rewinds another folder to the snapshot when asked to', async () => {
    const source = join(root, 'workspace-source');
    const other = join(root, 'workspace-other');
    put(source, 'a.txt', Buffer.from('source a\n'));
    put(source, 'sub/b.txt', Buffer.from('source b\n'));
    put(other, 'a.txt', Buffer.from('other a\n'));
    put(other, 'c.txt', Buffer.from('only in other\n'));
    const captured = await service.api['snapshots.capture']({ dir: source });
    const preview = await service.api['rewind.preview']({ nodeId: captured.node.id, workspace: other });
    expect(preview).toMatchObject({ workspace: other, written: ['a.txt'], created: ['sub/b.txt'], deleted: ['c.txt'] });
    const outcome = await service.api['rewind.apply']({ nodeId: captured.node.id, workspace: other, token: preview.token });
    expect(outcome.status).toBe('applied');
    expect(describeFiles(readAllFiles(other))).toEqual(describeFiles(readAllFiles(source)));
  });
});
