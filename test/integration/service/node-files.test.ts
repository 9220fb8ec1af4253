/**
 * Workspace state through the service: `nodes.files` / `nodes.file` / `nodes.diff` over the demo session's
 * reconstruction, and `snapshots.capture` (exact states) against the demo workspace on disk.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCreated } from '../../../electron/demo';
import { DemoSession } from '../../../electron/demo/demo-session';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';
import { git, gitAvailable, NO_GIT } from '../git/git-fixture';
import type { ArborService } from '../../../electron/service/service-types';
import { openDemoService, type DemoService } from './demo-service';
import { ArborError } from '../../../shared/errors';
import type { NodeFiles, NodeSummary } from '../../../shared/model';

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
    // Known or not: the rewound edit's text is what the transcript replays there.
    const content = await service.api['nodes.file']({ nodeId: node.id, path: formatPath(), replayed: true });
    if ((content.content ?? content.replayed)?.includes('\\x1b[32m') === true) return node;
  }
  throw new Error('the demo has no rewound edit of src/format.ts');
}

describe('nodes.files on a reconstructed session', () => {
  it('lists, at the main branch’s last node, exactly the touched files the demo left on disk, none known', async () => {
    const result = await service.api['nodes.files']({ nodeId: mainLast().id });
    expect(result.node.id).toBe(mainLast().id);
    // The demo's last step is `npm publish` with no recorded outcome, after a build: any file may have changed.
    expect(result.known).toBe('unknown');
    expect(result.files.length).toBeGreaterThanOrEqual(5);
    // Each file is in doubt since the first step after its last edit on the path that made it unknown (the
    // engine names the earliest may-write step still doubting it, not the last one), found walking the path.
    // The last node's path, root first: parent edges, across the compaction by its logical edge.
    const byId = new Map(nodes.map((node) => [node.id, node]));
    const main: NodeSummary[] = [];
    for (let at: NodeSummary | undefined = mainLast(); at !== undefined; ) {
      main.unshift(at);
      const up: string | undefined = at.parentId ?? at.extraEdges.find((edge) => edge.kind === 'logical')?.nodeId;
      at = up === undefined ? undefined : byId.get(up);
    }
    expect(main[0]!.id).toBe(nodes[0]!.id);
    const states = await Promise.all(main.map((node) => service.api['nodes.files']({ nodeId: node.id })));
    const sinceOf = (path: string): { nodeId: string; reason: string } => {
      const lastEdit = states.findLastIndex((state) => state.changed.some((change) => change.path === path));
      const from = states.findIndex((state, index) => index > lastEdit && state.files.some((file) => file.path === path && file.known === 'unknown'));
      const file = states[from]!.files.find((entry) => entry.path === path) as { reason: string };
      return { nodeId: main[from]!.id, reason: file.reason };
    };
    const expected = new Map(result.files.map((file) => [file.path, sinceOf(file.path)]));
    const earliest = main.find((node) => [...expected.values()].some((since) => since.nodeId === node.id))!;
    expect(result.unknownSince).toBe(earliest.id);
    expect(earliest.id).not.toBe(mainLast().id);
    for (const file of result.files) {
      const since = expected.get(file.path)!;
      expect(file.path.startsWith(demo.workspaceDir)).toBe(true);
      expect(file).toMatchObject({ known: 'unknown', unknownSince: since.nodeId, reason: since.reason, unknown: true });
      const content = await service.api['nodes.file']({ nodeId: mainLast().id, path: file.path });
      expect(content).toMatchObject({ known: 'unknown', content: null, exists: false, unknownSince: since.nodeId, reason: since.reason });
      expect(content.replayed).toBeUndefined();
      // The replay, asked for, is what the demo wrote (here the unrecorded steps changed nothing).
      const replayed = await service.api['nodes.file']({ nodeId: mainLast().id, path: file.path, replayed: true, bytes: true });
      expect(replayed.replayed, file.path).toBe(readFileSync(file.path, 'utf8'));
      expect(replayed.base64).toBeUndefined();
    }
  });

  it('makes the touched files unknown from the result of the first shell command, saying so per file', async () => {
    const main = nodes.filter((node) => !node.sidechain);
    let first: { index: number; files: NodeFiles } | undefined;
    for (let index = 0; index < main.length && first === undefined; index++) {
      const files = await service.api['nodes.files']({ nodeId: main[index]!.id });
      if (files.files.some((file) => file.known === 'unknown')) first = { index, files };
    }
    expect(first).toBeDefined();
    const bash = main[first!.index]!;
    expect(bash.kind).toBe('tool_result');
    expect(main.find((node) => node.id === bash.parentId)?.label).toMatch(/^Bash: npm run build/);
    for (const file of first!.files.files) expect(file).toMatchObject({ known: 'unknown', unknownSince: bash.id, reason: 'shell' });
    // The step before: every file reconstructed, with its blob id and size.
    const before = await service.api['nodes.files']({ nodeId: main[first!.index - 1]!.id });
    expect(before.known).toBe('reconstructed');
    expect(before.files.map((file) => file.known)).toEqual(before.files.map(() => 'reconstructed'));
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
    expect(files.files.find((file) => file.path === json)).toMatchObject({ path: json, status: 'added' });
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

describe('blob ids of reconstructed files', () => {
  const hashObject = (file: string): string => git(dirname(file), ['hash-object', file]).trim();

  it.skipIf(!gitAvailable)(`gives each known file the oid git hash-object gives its content written to disk${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    const main = nodes.filter((node) => !node.sidechain);
    // The step before the first shell command's result: nothing may have changed files unrecorded yet.
    const node = main[main.findIndex((step) => step.kind === 'tool_result' && step.label.startsWith('✓ Bash')) - 1]!;
    const listed = await service.api['nodes.files']({ nodeId: node.id });
    expect(listed.files.length).toBeGreaterThanOrEqual(5);
    const out = mkdtempSync(join(root, 'blobs-'));
    for (const [i, file] of listed.files.entries()) {
      if (file.known === 'unknown') throw new Error(`${file.path} is not known at ${node.id}`);
      const content = await service.api['nodes.file']({ nodeId: node.id, path: file.path, bytes: true });
      const written = join(out, String(i));
      writeFileSync(written, Buffer.from(content.base64!, 'base64'));
      expect(content.content).toBe(readFileSync(written, 'utf8'));
      expect(file.oid, file.path).toBe(hashObject(written));
      expect(file.size).toBe(statSync(written).size);
      expect(content).toMatchObject({ oid: file.oid, size: file.size, known: 'reconstructed', exists: true });
    }
  });

  it.skipIf(!gitAvailable)(`counts a file's size in UTF-8 bytes, not characters${gitAvailable ? '' : ` (${NO_GIT})`}`, async () => {
    const cwd = mkdtempSync(join(root, 'unicode-'));
    const session = unicodeSession(cwd);
    const transcript = join(root, 'unicode.jsonl');
    writeFileSync(transcript, `${session.lines.join('\n')}\n`);
    await service.api['import.run']({ paths: [transcript] });
    const graph = await service.api['sessions.graph']({ sessionId: session.sessionId });
    const last = graph.nodes.at(-1)!;
    const listed = await service.api['nodes.files']({ nodeId: last.id });
    expect(listed.files.map((file) => file.path).sort()).toEqual([join(cwd, 'no-newline.txt'), join(cwd, 'ünï.md')]);
    for (const file of listed.files) {
      if (file.known === 'unknown') throw new Error(`${file.path} is not known`);
      const text = session.files.get(file.path.slice(cwd.length + 1))!;
      writeFileSync(join(cwd, 'blob'), text);
      expect(file.size).toBe(Buffer.byteLength(text));
      expect(file.oid).toBe(hashObject(join(cwd, 'blob')));
    }
    expect(listed.files.find((file) => file.path.endsWith('.md'))).toMatchObject({ size: Buffer.byteLength(session.files.get('ünï.md')!) });
    expect(Buffer.byteLength(session.files.get('ünï.md')!)).toBeGreaterThan(session.files.get('ünï.md')!.length);
  });
});

/** A session that writes a file with non-ASCII text and one without a final newline. */
function unicodeSession(cwd: string): { sessionId: string; lines: string[]; files: ReadonlyMap<string, string> } {
  const random = new Random(7);
  const sessionId = random.uuid();
  const builder = new TranscriptBuilder({ sessionId, cwd, version: '2.1.39', gitBranch: 'main', slug: 'unicode' }, random, new Date('2026-05-01T10:00:00Z'));
  const agent = new DemoSession(builder, new Map(), random, 'claude-test');
  agent.prompt('Write the notes.', 1);
  agent.step({}, [agent.write('ünï.md', '# Grüße — ✓ 你好\n'), agent.write('no-newline.txt', 'last line')]);
  return { sessionId, lines: builder.take(), files: agent.files };
}
