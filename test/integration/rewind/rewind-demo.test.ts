/**
 * Rewind of a reconstructed session end to end: the demo (a git workspace plus its Claude Code transcript)
 * is imported, rewound through the service to several of its nodes, and undone. Only the files the session
 * touched change, to their state at the node; ignored and untouched files survive; undo restores every
 * byte; the operation journal lists both operations.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCreated } from '../../../electron/demo';
import type { ArborService } from '../../../electron/service/service-types';
import { openDemoService, type DemoService } from '../service/demo-service';
import type { NodeSummary } from '../../../shared/model';
import type { RewindPreview } from '../../../shared/operations';
import { describeFiles, readAllFiles } from './workspace-files';

let service: ArborService;
let demo: DemoCreated;
let nodes: readonly NodeSummary[];
const progress: string[] = [];

let fixture: DemoService | undefined;

beforeAll(async () => {
  fixture = await openDemoService('arbor-rewind-demo-');
  ({ service, demo, nodes } = fixture);
  service.events.on('operation.progress', (event) => progress.push(event.phase));
});
afterAll(async () => {
  await fixture?.dispose();
});

/** Main-line nodes whose rewinds differ from each other, plus the head of the branch the session rewound. */
async function interestingNodes(): Promise<NodeSummary[]> {
  const picked: NodeSummary[] = [];
  const seen = new Set<string>();
  for (const node of nodes.filter((candidate) => !candidate.sidechain)) {
    const preview = await service.api['rewind.preview']({ nodeId: node.id });
    const key = JSON.stringify([preview.written, preview.created, preview.deleted, preview.known]);
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(node);
    if (picked.length === 5) break;
  }
  const parents = new Set(nodes.map((node) => node.parentId));
  const mainLast = nodes.filter((node) => !node.sidechain).at(-1)!;
  const branchHead = nodes.find((node) => !node.sidechain && !parents.has(node.id) && node.id !== mainLast.id);
  if (branchHead !== undefined) picked.push(branchHead);
  return picked;
}

function expectWellFormed(preview: RewindPreview): void {
  const all = [...preview.written, ...preview.created, ...preview.deleted];
  expect(new Set(all).size).toBe(all.length);
  for (const list of [preview.written, preview.created, preview.deleted]) expect([...list].sort()).toEqual(list);
  for (const path of all) expect(path.startsWith('/') || path.includes('..')).toBe(false);
  expect(preview.workspace).toBe(demo.workspaceDir);
  expect(preview.token).toMatch(/^[0-9a-f]{32}$/);
}

describe('rewind of the demo session (reconstructed states)', () => {
  it('puts the touched files in their state at each node, leaves the rest, and undo restores every byte', async () => {
    const picked = await interestingNodes();
    expect(picked.length).toBeGreaterThanOrEqual(4);
    let rewoundSomething = 0;
    for (const node of picked) {
      const before = readAllFiles(demo.workspaceDir);
      const preview = await service.api['rewind.preview']({ nodeId: node.id });
      expectWellFormed(preview);
      const outcome = await service.api['rewind.apply']({ nodeId: node.id, token: preview.token });
      if (outcome.status !== 'applied') throw new Error(`rewind to ${node.id} stopped: ${JSON.stringify(outcome)}`);
      expect({ written: outcome.written, created: outcome.created, deleted: outcome.deleted }).toEqual({
        written: preview.written,
        created: preview.created,
        deleted: preview.deleted,
      });
      expect(outcome.sideEffects).toEqual(preview.sideEffects);
      const after = readAllFiles(demo.workspaceDir);

      // Every touched file whose content at the node is known holds exactly that content now.
      const state = await service.api['nodes.files']({ nodeId: node.id });
      const touched = new Set<string>();
      for (const absolute of (await reconstructionPaths(node.id)).concat(state.files.map((file) => file.path))) {
        const path = relative(demo.workspaceDir, absolute);
        if (touched.has(path)) continue;
        touched.add(path);
        const file = await service.api['nodes.file']({ nodeId: node.id, path: absolute });
        if (file.known === 'unknown') continue;
        if (file.exists) expect(after.get(path)?.bytes.toString('utf8'), `${path} at ${node.id}`).toBe(file.content);
        else expect(after.has(path), `${path} absent at ${node.id}`).toBe(false);
      }
      // Untouched files (the ignored debug.log among them) are byte for byte what they were.
      for (const [path, file] of before) if (!touched.has(path)) expect(after.get(path), path).toEqual(file);
      for (const path of after.keys()) if (!touched.has(path)) expect(before.has(path), path).toBe(true);
      expect(after.get('debug.log')?.bytes.toString()).toBe(readFileSync(join(demo.workspaceDir, 'debug.log'), 'utf8'));
      expect(after.has('debug.log')).toBe(true);
      if (outcome.written.length + outcome.created.length + outcome.deleted.length > 0) rewoundSomething++;

      const undone = await service.api['operations.undo']({ operationId: outcome.operation });
      expect(undone.status).toBe('applied');
      expect(describeFiles(readAllFiles(demo.workspaceDir))).toEqual(describeFiles(before));

      const listed = (await service.api['operations.list']({ workspace: demo.workspaceDir })).operations;
      expect(listed.find((operation) => operation.operation === outcome.operation)).toMatchObject({ kind: 'rewind', status: 'undone', nodeId: node.id });
    }
    expect(rewoundSomething).toBeGreaterThanOrEqual(3);
    expect(progress).toContain('write');
    expect(progress).toContain('done');
  });

  it('lists the side effects after the node: the npm publish near the end, and unknown runs of the built program', async () => {
    const first = await service.api['rewind.preview']({ nodeId: nodes[0]!.id });
    expect(first.sideEffects.map((effect) => effect.kind)).toContain('publish');
    expect(first.sideEffects.find((effect) => effect.kind === 'publish')).toMatchObject({ tool: 'Bash', summary: expect.stringContaining('npm publish') });
    for (const effect of first.sideEffects) expect(nodes.some((node) => node.id === effect.nodeId)).toBe(true);
    const last = await service.api['rewind.preview']({ nodeId: nodes.filter((node) => !node.sidechain).at(-1)!.id });
    expect(last.sideEffects.length).toBeLessThan(first.sideEffects.length);
  });

  it('stops with workspace-changed when a file the preview saw changed, and writes nothing', async () => {
    const target = nodes[0]!;
    const preview = await service.api['rewind.preview']({ nodeId: target.id });
    const victim = preview.written[0]!;
    writeFileSync(join(demo.workspaceDir, victim), '// edited by hand after the preview\n');
    const before = readAllFiles(demo.workspaceDir);
    const operationsBefore = (await service.api['operations.list']({})).operations.length;
    const outcome = await service.api['rewind.apply']({ nodeId: target.id, token: preview.token });
    expect(outcome).toEqual({ status: 'workspace-changed', changed: [victim] });
    expect(describeFiles(readAllFiles(demo.workspaceDir))).toEqual(describeFiles(before));
    expect((await service.api['operations.list']({})).operations.length).toBe(operationsBefore);
  });

  it('answers NOT_FOUND for an unknown node and an unknown operation', async () => {
    await expect(service.api['rewind.preview']({ nodeId: 'no-such-node' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.api['operations.undo']({ operationId: 'op-nothing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

/** Every file the session touched (absolute), from the node's file listing at the session's first node. */
async function reconstructionPaths(nodeId: string): Promise<string[]> {
  const files = await service.api['nodes.files']({ nodeId });
  const changed = files.changed.map((file) => file.path);
  const everyNode = await service.api['nodes.files']({ nodeId: nodes.filter((node) => !node.sidechain).at(-1)!.id });
  return [...changed, ...everyNode.files.map((file) => file.path)];
}
