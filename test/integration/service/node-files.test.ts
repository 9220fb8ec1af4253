/**
 * Workspace state through the service: `nodes.files` / `nodes.file` / `nodes.diff` over the demo session's
 * reconstruction, and `snapshots.capture` (exact states) against the demo workspace on disk.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCreated } from '../../../electron/demo';
import type { ArborService } from '../../../electron/service/service-types';
import { openDemoService, type DemoService } from './demo-service';
import { ArborError } from '../../../shared/errors';
import type { NodeSummary } from '../../../shared/model';

let root: string;
let service: ArborService;
let demo: DemoCreated;
let nodes: readonly NodeSummary[];

let fixture: DemoService | undefined;

beforeAll(async () => {
  fixture = await openDemoService('arbor-node-files-');
  ({ root, service, demo, nodes } = fixture);
});
afterAll(async () => {
  await fixture?.dispose();
});

const mainLast = (): NodeSummary => nodes.filter((node) => !node.sidechain).at(-1)!;
const formatPath = (): string => join(demo.workspaceDir, 'src/format.ts');

async function rewoundEditNode(): Promise<NodeSummary> {
  for (const node of nodes) {
    const files = await service.api['nodes.files']({ nodeId: node.id });
    if (!files.changed.some((change) => change.path === formatPath())) continue;
    const content = await service.api['nodes.file']({ nodeId: node.id, path: formatPath() });
    if (content.content?.includes('\\x1b[32m') === true) return node;
  }
  throw new Error('the demo has no rewound edit of src/format.ts');
}

describe('nodes.files on a reconstructed session', () => {
  it('lists, at the main branch’s last node, exactly the touched files the demo left on disk', async () => {
    const result = await service.api['nodes.files']({ nodeId: mainLast().id });
    expect(result.node.id).toBe(mainLast().id);
    // The demo ran `npm run build`: files may have changed unrecorded, so the state is not exact.
    expect(result.known).toBe('unknown');
    expect(result.unknownSince).not.toBeNull();
    expect(result.files.length).toBeGreaterThanOrEqual(5);
    for (const file of result.files) {
      expect(file.path.startsWith(demo.workspaceDir)).toBe(true);
      expect(file.unknown).toBeUndefined();
      const content = await service.api['nodes.file']({ nodeId: mainLast().id, path: file.path });
      expect(content.exists).toBe(true);
      expect(content.content, file.path).toBe(readFileSync(file.path, 'utf8'));
    }
  });

  it('knows the first node’s state as reconstructed, before the session created any file', async () => {
    const first = await service.api['nodes.files']({ nodeId: nodes[0]!.id });
    expect(first.known).toBe('reconstructed');
    expect(first.changed).toEqual([]);
    const json = await service.api['nodes.file']({ nodeId: nodes[0]!.id, path: join(demo.workspaceDir, 'src/json.ts') });
    expect(json).toMatchObject({ exists: false, content: null, known: 'reconstructed' });
    expect(first.files.map((file) => file.path)).not.toContain(join(demo.workspaceDir, 'src/json.ts'));
  });

  it('marks a file the node created as added', async () => {
    const json = join(demo.workspaceDir, 'src/json.ts');
    let creator: string | undefined;
    for (const node of nodes) {
      const files = await service.api['nodes.files']({ nodeId: node.id });
      if (files.changed.some((change) => change.path === json && change.status === 'added')) creator = node.id;
    }
    expect(creator).toBeDefined();
    const files = await service.api['nodes.files']({ nodeId: creator! });
    expect(files.files.find((file) => file.path === json)).toEqual({ path: json, status: 'added' });
  });

  it('fails with NOT_FOUND for an unknown node', async () => {
    await expect(service.api['nodes.files']({ nodeId: 'no-such-node' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.api['nodes.diff']({ nodeIdA: mainLast().id, nodeIdB: 'no-such-node' })).rejects.toBeInstanceOf(ArborError);
  });
});

describe('nodes.diff', () => {
  it('lists the file the rewound branch changed differently from the main branch', async () => {
    const rewound = await rewoundEditNode();
    const diff = await service.api['nodes.diff']({ nodeIdA: rewound.id, nodeIdB: mainLast().id });
    const format = diff.files.find((file) => file.path === formatPath());
    expect(format).toMatchObject({ status: 'modified' });
    expect(format!.before).toContain('\\x1b[32m');
    expect(format!.after).toBe(readFileSync(formatPath(), 'utf8'));
    // A node compared with itself differs nowhere.
    expect((await service.api['nodes.diff']({ nodeIdA: rewound.id, nodeIdB: rewound.id })).files).toEqual([]);
  });
});

describe('snapshots.capture', () => {
  it('records an exact snapshot as a node of the workspace’s session and reuses objects next time', async () => {
    const first = await service.api['snapshots.capture']({ dir: demo.workspaceDir });
    expect(first.files).toBeGreaterThanOrEqual(5);
    expect(first.snapshot.files).toBe(first.files);
    expect(first.node).toMatchObject({ kind: 'system', sessionId: demo.sessionId, parentId: mainLast().id, timestamp: '2026-05-02T09:00:00.000Z' });
    expect(first.node.label).toBe(`Snapshot of ${demo.workspaceDir} (${first.files} files)`);
    expect(first.snapshot.objectsWritten).toBeGreaterThan(first.files);

    const second = await service.api['snapshots.capture']({ dir: demo.workspaceDir });
    expect(second.node.id).not.toBe(first.node.id);
    expect(second.snapshot.tree).toBe(first.snapshot.tree);
    // At most the new commit (the same tree, message and time make the same commit, already stored).
    expect(second.snapshot.objectsWritten).toBeLessThanOrEqual(1);
    expect(second.snapshot.filesRead).toBe(0); // the stat cache knew every file

    const files = await service.api['nodes.files']({ nodeId: first.node.id });
    expect(files.known).toBe('exact');
    expect(files.files).toHaveLength(first.files);
    const readme = files.files.map((file) => file.path).find((path) => path.endsWith('src/format.ts'))!;
    expect(await service.api['nodes.file']({ nodeId: first.node.id, path: readme })).toMatchObject({ known: 'exact', exists: true, content: readFileSync(readme, 'utf8') });
    // Nothing changed between the two captures.
    expect((await service.api['nodes.files']({ nodeId: second.node.id })).changed).toEqual([]);
    expect((await service.api['nodes.diff']({ nodeIdA: first.node.id, nodeIdB: second.node.id })).files).toEqual([]);
  });

  it('diffs a snapshot against a later one and against a reconstructed node', async () => {
    const before = await service.api['snapshots.capture']({ dir: demo.workspaceDir });
    const added = join(demo.workspaceDir, 'NOTES.md');
    writeFileSync(added, 'a new note\n');
    const after = await service.api['snapshots.capture']({ dir: demo.workspaceDir });
    expect(after.snapshot.tree).not.toBe(before.snapshot.tree);
    const changed = await service.api['nodes.files']({ nodeId: after.node.id });
    expect(changed.changed).toEqual([{ path: added, status: 'added' }]);
    const diff = await service.api['nodes.diff']({ nodeIdA: before.node.id, nodeIdB: after.node.id });
    expect(diff.files).toEqual([{ path: added, status: 'added', before: null, after: 'a new note\n' }]);

    // Against the reconstruction only the session's touched files count (not NOTES.md); on disk they match
    // the main branch's last node, so the rewound node differs from the snapshot as it does from that node.
    const rewound = await rewoundEditNode();
    const mixed = await service.api['nodes.diff']({ nodeIdA: rewound.id, nodeIdB: after.node.id });
    expect(mixed.files.map((file) => file.path)).toContain(formatPath());
    expect(mixed.files).toEqual((await service.api['nodes.diff']({ nodeIdA: rewound.id, nodeIdB: mainLast().id })).files);
    expect((await service.api['nodes.diff']({ nodeIdA: mainLast().id, nodeIdB: after.node.id })).files).toEqual([]);
  });

  it('gives a folder no session ran in an Arbor-owned session, and refuses a missing folder', async () => {
    const other = join(root, 'other');
    expect(existsSync(other)).toBe(false);
    await expect(service.api['snapshots.capture']({ dir: other })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const plain = mkdtempSync(join(root, 'plain-'));
    writeFileSync(join(plain, 'a.txt'), 'a\n');
    const captured = await service.api['snapshots.capture']({ dir: plain });
    expect(captured.node.sessionId).toMatch(/^arbor-workspace-/);
    expect(captured.node.parentId).toBeNull();
    expect(captured.files).toBe(1);
  });
});
