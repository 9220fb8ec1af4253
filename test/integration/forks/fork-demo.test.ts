/**
 * `fork.create`, `forks.list` and `forks.remove` over the demo session, through the real service: the new
 * folder holds the source's non-ignored files with the node's state applied, the source is untouched byte
 * for byte, the branch appears in the graph, the resumable transcript follows FORMATS.md §1.10, and a
 * continued run imports below the fork point.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProjectDir } from '../../../electron/forks/claude-projects';
import type { NodeSummary, SessionGraph } from '../../../shared/model';
import type { ForkCreated } from '../../../shared/operations';
import { openHarness, type Harness } from '../service/service-harness';
import { checkResumableCopy } from './transcript-rules';

/** Every file below `root` (symlinks as their target text), path → bytes. */
function readTree(root: string, skip: (path: string) => boolean = () => false): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const stack = [root];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const key = relative(root, path);
      if (skip(key)) continue;
      if (entry.isDirectory()) stack.push(path);
      else files.set(key, lstatSync(path).isSymbolicLink() ? Buffer.from('link') : readFileSync(path));
    }
  }
  return files;
}

const asText = (files: Map<string, Buffer>): Record<string, string> => Object.fromEntries([...files].map(([path, bytes]) => [path, bytes.toString('utf8')]).sort());

describe('forking the demo session', () => {
  let harness: Harness;
  let sessionId: string;
  let source: string;
  let graph: SessionGraph;
  let sourceBefore: Map<string, Buffer>;
  let early: NodeSummary;

  beforeAll(async () => {
    harness = await openHarness();
    const demo = await harness.service.api['demo.create']({ dir: join(harness.root, 'demo') });
    sessionId = demo.sessionId;
    graph = await harness.service.api['sessions.graph']({ sessionId });
    source = graph.session.project!;
    sourceBefore = readTree(source);
    // An early step that changed files, while the state is still reconstructed (before any build ran).
    for (const node of graph.nodes.filter((n) => !n.sidechain && n.kind === 'tool_result')) {
      const files = await harness.service.api['nodes.files']({ nodeId: node.id });
      if (files.known === 'reconstructed' && files.changed.length > 0) {
        early = node;
        break;
      }
    }
    expect(early).toBeDefined();
  });
  afterAll(async () => harness?.dispose());

  const fork = (nodeId: string, dir?: string): Promise<ForkCreated> =>
    harness.service.api['fork.create']({ nodeId, ...(dir === undefined ? {} : { dir }) });

  it('writes the source’s non-ignored files with the node’s state applied, and leaves the source untouched', async () => {
    const target = join(harness.root, 'forks', 'early');
    const created = await fork(early.id, target);
    expect(created.dir).toBe(target);

    // What git calls the workspace's files (tracked and untracked, ignored ones left out)…
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: source, encoding: 'utf8' }).split('\0').filter(Boolean);
    const expected = new Map(listed.map((path) => [path, readFileSync(join(source, path))]));
    // …with every file the session touched set to its content at the node (absent there: not in the fork).
    const touched = (await harness.service.api['nodes.files']({ nodeId: graph.nodes.filter((n) => !n.sidechain).at(-1)!.id })).files.map((f) => f.path);
    expect(touched.length).toBeGreaterThan(2);
    let deleted = 0;
    for (const path of touched) {
      const atNode = await harness.service.api['nodes.file']({ nodeId: early.id, path });
      expect(atNode.known).not.toBe('unknown');
      const key = relative(source, path);
      if (atNode.exists) expected.set(key, Buffer.from(atNode.content!));
      else if (expected.delete(key)) deleted++;
    }
    expect(deleted).toBeGreaterThan(0); // a file the session created later is not in the fork
    expect(asText(readTree(target))).toEqual(asText(expected));
    expect(existsSync(join(target, 'debug.log'))).toBe(false); // ignored in the source
    expect(existsSync(join(target, '.git'))).toBe(false);
    expect(created.files).toBe(expected.size);
    expect(created.skipped).toEqual([]);

    // Nothing was written into the source workspace.
    expect(readTree(source)).toEqual(sourceBefore);
  });

  it('counts a fork beside the next step as a branch point, in the graph’s session summary and in the list', async () => {
    const listedCount = async (): Promise<number> => (await harness.service.api['sessions.list']({})).sessions.find((session) => session.id === sessionId)!.branchCount;
    const before = await harness.service.api['sessions.graph']({ sessionId });
    expect(await listedCount()).toBe(before.session.branchCount);
    const children = (id: string): number => before.nodes.filter((node) => node.parentId === id).length;
    // A main-line step with exactly one next step, no fork yet, and not the node other tests fork from.
    const point = before.nodes.find((node) => node.kind === 'assistant' && !node.sidechain && node.id !== early.id && children(node.id) === 1)!;
    expect(point).toBeDefined();
    await fork(point.id, join(harness.root, 'forks', 'count'));
    const after = await harness.service.api['sessions.graph']({ sessionId });
    expect(after.session.branchCount).toBe(before.session.branchCount + 1);
    // The session list counts them as the graph does (its remembered count follows the new fork).
    expect(await listedCount()).toBe(after.session.branchCount);
  });

  it('adds the branch to the graph below the fork point and tells the session changed', async () => {
    const created = await fork(early.id, join(harness.root, 'forks', 'graph'));
    const after = await harness.service.api['sessions.graph']({ sessionId });
    const branch = after.nodes.find((node) => node.id === created.branch);
    expect(branch?.parentId).toBe(early.id);
    expect(after.workspaceNodes).toContainEqual({ nodeId: created.branch, kind: 'fork', dir: created.dir });
    expect(harness.events['sessions.changed']).toContainEqual({ sessionIds: [sessionId] });
    const progress = harness.events['operation.progress'].filter((event) => event.operation === created.fork);
    expect(progress.map((event) => event.phase)).toEqual(expect.arrayContaining(['copy', 'apply', 'capture', 'transcript']));
    // The branch node's state is the fork's exact capture.
    const files = await harness.service.api['nodes.files']({ nodeId: created.branch });
    expect(files.known).toBe('exact');
    expect(files.files.length).toBe(created.files);
  });

  it('writes a resumable transcript under the new folder’s project, and a continued run hangs below the fork point', async () => {
    const created = await fork(early.id, join(harness.root, 'forks', 'resume'));
    const id = created.resumeSessionId!;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.resume).toBe(`claude --resume ${id}`);
    expect(created.transcript).toBe(join(harness.root, 'home', '.claude', 'projects', encodeProjectDir(created.dir), `${id}.jsonl`));
    const text = readFileSync(created.transcript!, 'utf8');
    const sourceLine = (uuid: string): string => {
      for (const file of readdirSync(join(harness.root, 'demo', 'transcripts'), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.jsonl')) continue;
        const line = readFileSync(join(harness.root, 'demo', 'transcripts', file), 'utf8').split('\n').find((l) => l.includes(`"uuid":"${uuid}"`));
        if (line !== undefined) return line;
      }
      throw new Error(`no source line ${uuid}`);
    };
    expect(checkResumableCopy(text, { sessionId: id, target: early.id, targetKept: true, sourceLine, move: { from: source, to: created.dir } })).toEqual([]);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => typeof line.cwd === 'string').every((line) => line.cwd === created.dir)).toBe(true);
    // The agent resumed in the fork must edit the fork: no call it made names a file in the source folder.
    const inputs = lines.flatMap((line) => {
      const message = line.message as { content?: unknown } | undefined;
      return Array.isArray(message?.content) ? (message.content as { type?: string; input?: unknown }[]).filter((b) => b.type === 'tool_use').map((b) => JSON.stringify(b.input)) : [];
    });
    expect(inputs.some((input) => input.includes(created.dir))).toBe(true);
    expect(inputs.filter((input) => input.includes(`${source}/`))).toEqual([]);

    // Claude Code continues the copy: new uuids, the same new session id, parent = the copy's last line.
    const last = lines.at(-1)!;
    const prompt = { type: 'user', uuid: 'c0ffee00-0000-4000-8000-000000000001', parentUuid: last.uuid, isSidechain: false, sessionId: id, cwd: created.dir, timestamp: '2026-03-01T12:30:00.000Z', message: { role: 'user', content: 'Now add a --csv flag' } };
    const reply = { type: 'assistant', uuid: 'c0ffee00-0000-4000-8000-000000000002', parentUuid: prompt.uuid, isSidechain: false, sessionId: id, cwd: created.dir, timestamp: '2026-03-01T12:30:05.000Z', message: { id: 'msg_continued', role: 'assistant', model: 'claude-test', content: [{ type: 'text', text: 'Adding --csv.' }] } };
    appendFileSync(created.transcript!, `${JSON.stringify(prompt)}\n${JSON.stringify(reply)}\n`);
    const report = await harness.service.api['import.run']({ paths: [created.transcript!] });
    // The copy's lines (paths moved into the fork) are the stored lines' uuids: taken as known, not as conflicts.
    expect(report.problems).toEqual([]);

    const after = await harness.service.api['sessions.graph']({ sessionId });
    const byId = new Map(after.nodes.map((node) => [node.id, node]));
    const ancestors = (id: string): string[] => {
      const chain: string[] = [];
      for (let at = byId.get(id)?.parentId ?? null; at !== null; at = byId.get(at)?.parentId ?? null) chain.push(at);
      return chain;
    };
    expect(byId.has(reply.uuid)).toBe(true);
    expect(ancestors(reply.uuid)).toContain(early.id);
    expect(ancestors(reply.uuid)[0]).toBe(prompt.uuid);
    // Drawn on the fork's branch: the continuation's first step hangs below the fork node, and its
    // parentSourceId still says what the transcript wrote.
    expect(byId.get(prompt.uuid)?.parentId).toBe(created.branch);
    expect(byId.get(prompt.uuid)?.parentSourceId).toBe(last.uuid);
    expect(ancestors(reply.uuid).slice(0, 3)).toEqual([prompt.uuid, created.branch, early.id]);
    // The copy's lines were already stored: the session did not gain duplicates of them.
    expect(after.nodes.length).toBe(graph.nodes.length + 2 + (after.workspaceNodes?.length ?? 0));
  });

  it('forks an exact snapshot node into exactly the snapshot’s files', async () => {
    const captured = await harness.service.api['snapshots.capture']({ dir: source });
    const created = await fork(captured.node.id, join(harness.root, 'forks', 'exact'));
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: source, encoding: 'utf8' }).split('\0').filter(Boolean);
    expect(asText(readTree(created.dir))).toEqual(asText(new Map(listed.map((path) => [path, readFileSync(join(source, path))]))));
    expect(created.files).toBe(captured.files);
    const graphAfter = await harness.service.api['sessions.graph']({ sessionId: captured.node.sessionId });
    expect(graphAfter.nodes.find((node) => node.id === created.branch)?.parentId).toBe(captured.node.id);
    expect(readTree(source)).toEqual(sourceBefore);
  });

  it('refuses a target that is not empty, or inside the source workspace, and writes nothing', async () => {
    const busy = join(harness.root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'keep.txt'), 'mine');
    await expect(fork(early.id, busy)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(readdirSync(busy)).toEqual(['keep.txt']);
    await expect(fork(early.id, join(source, 'sub'))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(existsSync(join(source, 'sub'))).toBe(false);
    symlinkSync(source, join(harness.root, 'link-to-source'));
    await expect(fork(early.id, join(harness.root, 'link-to-source', 'sub'))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(existsSync(join(source, 'sub'))).toBe(false);
    await expect(fork('no-such-node', join(harness.root, 'nowhere'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('forks into an empty folder it did not create, and by default into the data folder', async () => {
    const empty = join(harness.root, 'empty');
    mkdirSync(empty);
    const into = await fork(early.id, empty);
    expect(readdirSync(empty).length).toBeGreaterThan(0);
    const byDefault = await fork(early.id);
    expect(byDefault.dir.startsWith(join(harness.root, 'data', 'forks'))).toBe(true);
    const removed = await harness.service.api['forks.remove']({ forkIds: [into.fork, byDefault.fork] });
    expect(removed.removed).toEqual([into.fork, byDefault.fork]);
    // The folder that existed before is kept (and said so); the one Arbor made is gone.
    expect(existsSync(empty)).toBe(true);
    expect(removed.problems).toEqual([{ fork: into.fork, message: expect.stringContaining('existed before') }]);
    expect(existsSync(byDefault.dir)).toBe(false);
  });

  it('lists forks with their size on disk and removes folder, transcript and branch in one action', async () => {
    const created = await fork(early.id, join(harness.root, 'forks', 'listed'));
    const { forks } = await harness.service.api['forks.list']({});
    const listed = forks.find((entry) => entry.fork === created.fork)!;
    const folderBytes = [...readTree(created.dir).values()].reduce((sum, bytes) => sum + bytes.length, 0);
    expect(listed).toMatchObject({ nodeId: early.id, sessionId, branch: created.branch, dir: created.dir, transcript: created.transcript, resume: created.resume });
    expect(listed.bytes).toBe(folderBytes + readFileSync(created.transcript!).length);

    const result = await harness.service.api['forks.remove']({ forkIds: [created.fork, 'no-such-fork'] });
    expect(result.removed).toEqual([created.fork]);
    expect(result.problems).toEqual([{ fork: 'no-such-fork', message: expect.any(String) }]);
    expect(existsSync(created.dir)).toBe(false);
    expect(existsSync(created.transcript!)).toBe(false);
    const after = await harness.service.api['sessions.graph']({ sessionId });
    expect(after.nodes.some((node) => node.id === created.branch)).toBe(false);
    expect((await harness.service.api['forks.list']({})).forks.some((entry) => entry.fork === created.fork)).toBe(false);
    // The source workspace is still untouched after all the forks above.
    expect(readTree(source)).toEqual(sourceBefore);
  });

  it('links the source session’s file-history backups under the resumed session, and removes them with the fork', async () => {
    const configDir = join(harness.root, 'home', '.claude');
    const claudeSession = (JSON.parse((await harness.service.api['nodes.get']({ nodeId: early.id })).raw) as { sessionId: string }).sessionId;
    const sourceHistory = join(configDir, 'file-history', claudeSession);
    mkdirSync(sourceHistory, { recursive: true });
    writeFileSync(join(sourceHistory, '0123456789abcdef@v1'), 'backup one\n');
    writeFileSync(join(sourceHistory, '0123456789abcdef@v2'), 'backup two\n');
    try {
      const created = await fork(early.id, join(harness.root, 'forks', 'history'));
      const history = join(configDir, 'file-history', created.resumeSessionId!);
      expect(readdirSync(history).sort()).toEqual(['0123456789abcdef@v1', '0123456789abcdef@v2']);
      expect(readFileSync(join(history, '0123456789abcdef@v2'), 'utf8')).toBe('backup two\n');
      // Linked, not copied: the fork's size on disk does not count them twice.
      expect(statSync(join(history, '0123456789abcdef@v1')).ino).toBe(statSync(join(sourceHistory, '0123456789abcdef@v1')).ino);
      const listed = (await harness.service.api['forks.list']({})).forks.find((entry) => entry.fork === created.fork)!;
      const folderBytes = [...readTree(created.dir).values()].reduce((sum, bytes) => sum + bytes.length, 0);
      expect(listed.bytes).toBe(folderBytes + readFileSync(created.transcript!).length);

      await harness.service.api['forks.remove']({ forkIds: [created.fork] });
      expect(existsSync(history)).toBe(false);
      expect(readdirSync(sourceHistory)).toHaveLength(2);
    } finally {
      rmSync(sourceHistory, { recursive: true, force: true });
    }
  });

  it('stops when cancelled mid-way and leaves no folder, transcript or branch behind', async () => {
    const target = join(harness.root, 'forks', 'cancelled');
    const controller = new AbortController();
    const stop = harness.service.events.on('operation.progress', (event) => {
      if (event.phase === 'copy') controller.abort();
    });
    const before = (await harness.service.api['forks.list']({})).forks.length;
    const branchesBefore = (await harness.service.api['sessions.graph']({ sessionId })).nodes.length;
    try {
      await expect(harness.service.api['fork.create']({ nodeId: early.id, dir: target }, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      stop();
    }
    expect(controller.signal.aborted).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(harness.root, 'home', '.claude', 'projects', encodeProjectDir(target)))).toBe(false);
    expect((await harness.service.api['forks.list']({})).forks.length).toBe(before);
    expect((await harness.service.api['sessions.graph']({ sessionId })).nodes.length).toBe(branchesBefore);
  });

  it('lists a fork whose folder was deleted by hand with no size', async () => {
    const created = await fork(early.id, join(harness.root, 'forks', 'gone'));
    rmSync(created.dir, { recursive: true });
    const listed = (await harness.service.api['forks.list']({})).forks.find((entry) => entry.fork === created.fork);
    expect(listed?.bytes).toBeNull();
  });
});
