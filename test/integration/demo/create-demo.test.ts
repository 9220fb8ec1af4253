import * as fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo, type DemoCreated } from '../../../electron/demo';
import { INITIAL_FILES } from '../../../electron/demo/demo-files';
import { applyHunks, blocks, type Hunk, type Line, parseTranscript, realForks } from '../../unit/electron/demo/transcript-checks';

const NOW = new Date('2026-05-01T12:00:00.000Z');
type EditResult = { filePath: string; originalFile: string | null; oldString?: string; newString?: string; content?: string; structuredPatch: Hunk[] };

async function readLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

function isFileChange(line: Line): boolean {
  const r = line.toolUseResult as { structuredPatch?: unknown } | undefined;
  return typeof r === 'object' && r !== null && Array.isArray(r.structuredPatch);
}

/** Root→leaf path of the last node, crossing compactions through logicalParentUuid. */
function mainBranch(lines: readonly Line[]): Line[] {
  const byUuid = new Map(lines.filter((l) => l.uuid).map((l) => [l.uuid as string, l]));
  const nodes = lines.filter((l) => l.uuid);
  const path: Line[] = [];
  let current: Line | undefined = nodes[nodes.length - 1];
  while (current) {
    path.unshift(current);
    const next: unknown = current.parentUuid ?? current.logicalParentUuid;
    current = typeof next === 'string' ? byUuid.get(next) : undefined;
  }
  return path;
}

describe('createDemo', () => {
  let tmp = '';
  let demo: DemoCreated;
  let main: Line[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'arbor-demo-'));
    demo = await createDemo(join(tmp, 'demo'), { now: () => NOW });
    main = parseTranscript(await readLines(demo.transcriptFiles[0] ?? ''));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('lays out the workspace and Claude Code project folder', () => {
    expect(demo.workspaceDir).toBe(join(demo.dir, 'workspace'));
    const encoded = demo.workspaceDir.replace(/[^a-zA-Z0-9]/g, '-');
    expect(demo.transcriptFiles[0]).toBe(join(demo.dir, 'transcripts', encoded, `${demo.sessionId}.jsonl`));
    expect(demo.transcriptFiles[1]).toMatch(new RegExp(`/${demo.sessionId}/subagents/agent-a[0-9a-f]{16}\\.jsonl$`));
  });

  it('writes a session in one cwd with absolute paths inside the workspace, timed by the injected clock', () => {
    const nodes = main.filter((l) => l.uuid);
    expect(nodes.length).toBeGreaterThan(60);
    for (const l of nodes) {
      expect(l).toMatchObject({ sessionId: demo.sessionId, cwd: demo.workspaceDir, isSidechain: false });
      const t = Date.parse(String(l.timestamp));
      expect(t).toBeLessThanOrEqual(NOW.getTime());
      expect(t).toBeGreaterThan(NOW.getTime() - 2 * 3600_000);
    }
    const paths = main.flatMap((l) => blocks(l)).filter((b) => b.type === 'tool_use').map((b) => (b.input as { file_path?: string }).file_path).filter((p) => p !== undefined);
    expect(paths.length).toBeGreaterThan(5);
    for (const p of paths) expect(p.startsWith(demo.workspaceDir + '/')).toBe(true);
  });

  it('has thinking, token usage, model names, progress, file-history-snapshot and summary lines', () => {
    const assistants = main.filter((l) => l.type === 'assistant');
    expect(assistants.some((l) => blocks(l)[0]?.type === 'thinking')).toBe(true);
    for (const l of assistants) {
      const message = l.message as { model: string; id: string; usage: { output_tokens: number } };
      expect(message.model).toMatch(/^claude-/);
      expect(message.id).toMatch(/^msg_/);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
    }
    expect(main.some((l) => l.type === 'progress')).toBe(true);
    const snapshots = main.filter((l) => l.type === 'file-history-snapshot');
    expect(snapshots.some((s) => s.isSnapshotUpdate === false)).toBe(true);
    expect(snapshots.some((s) => s.isSnapshotUpdate === true)).toBe(true);
    const summary = main.find((l) => l.type === 'summary');
    expect(main.some((l) => l.uuid === summary?.leafUuid)).toBe(true);
  });

  it('has a rewind: two typed prompts sharing a parent with different timestamps', () => {
    expect(realForks(main)).toHaveLength(1);
  });

  it('has a failed Edit and a final tool call with no result', () => {
    const failed = main.find((l) => blocks(l).some((b) => b.type === 'tool_result' && b.is_error === true));
    expect(String(failed?.toolUseResult)).toMatch(/^Error: String to replace not found/);
    const answered = new Set(main.flatMap((l) => blocks(l)).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
    const unanswered = main.flatMap((l) => blocks(l).filter((b) => b.type === 'tool_use' && !answered.has(b.id)).map(() => l));
    expect(unanswered).toHaveLength(1);
    expect(unanswered[0]).toBe(main.filter((l) => l.uuid).at(-1));
  });

  it('has a compaction: a new root pointing at its logical parent, then the summary prompt', () => {
    const boundary = main.find((l) => l.subtype === 'compact_boundary');
    expect(boundary?.parentUuid).toBeNull();
    expect(main.some((l) => l.uuid === boundary?.logicalParentUuid)).toBe(true);
    expect(boundary?.compactMetadata).toMatchObject({ trigger: 'manual' });
    const summary = main.find((l) => l.isCompactSummary === true);
    expect(summary?.parentUuid).toBe(boundary?.uuid);
  });

  it('links a subagent transcript through the Agent result agentId', async () => {
    const spawn = main.find((l) => (l.toolUseResult as { agentId?: string } | undefined)?.agentId !== undefined);
    const agentId = (spawn?.toolUseResult as { agentId: string }).agentId;
    const call = main.find((l) => blocks(l).some((b) => b.type === 'tool_use' && b.name === 'Agent'));
    expect(spawn?.parentUuid).toBe(call?.uuid);
    expect(demo.transcriptFiles[1]).toMatch(new RegExp(`agent-${agentId}\\.jsonl$`));
    const sub = parseTranscript(await readLines(demo.transcriptFiles[1] ?? ''));
    expect(sub[0]?.parentUuid).toBeNull();
    for (const l of sub) expect(l).toMatchObject({ isSidechain: true, agentId, sessionId: demo.sessionId });
    const mainUuids = new Set(main.map((l) => l.uuid));
    expect(sub.some((l) => mainUuids.has(l.uuid))).toBe(false);
    const meta = JSON.parse(await readFile(String(demo.transcriptFiles[1]).replace(/\.jsonl$/, '.meta.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ agentType: 'general-purpose' });
    expect(main.some((l) => l.type === 'progress' && (l.data as { agentId?: string }).agentId === agentId)).toBe(true);
  });

  it('leaves the workspace exactly as replaying the main branch edits from the initial commit gives', async () => {
    const dir = demo.workspaceDir;
    const head = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    const committed = new Map<string, string>();
    for (const path of await git.listFiles({ fs, dir, ref: 'HEAD' })) {
      const { blob } = await git.readBlob({ fs, dir, oid: head, filepath: path });
      committed.set(path, Buffer.from(blob).toString('utf8'));
    }
    expect(committed.has('src/index.ts')).toBe(true);
    expect(committed.has('debug.log')).toBe(false);
    expect(await git.isIgnored({ fs, dir, filepath: 'debug.log' })).toBe(true);
    expect(fs.existsSync(join(dir, 'debug.log'))).toBe(true);

    const state = new Map(committed);
    const changes = mainBranch(main).filter(isFileChange);
    expect(changes.length).toBeGreaterThanOrEqual(6);
    for (const line of changes) {
      const r = line.toolUseResult as EditResult;
      const path = relative(dir, r.filePath);
      // originalFile is the real pre-edit content: what the replay so far says the file holds.
      expect(r.originalFile).toBe(state.has(path) ? state.get(path) : null);
      const after = r.oldString !== undefined ? (r.originalFile ?? '').replace(r.oldString, () => r.newString ?? '') : (r.content ?? '');
      expect(applyHunks(r.originalFile ?? '', r.structuredPatch)).toBe(r.originalFile === null ? '' : after);
      state.set(path, after);
    }
    for (const [path, content] of state) expect(await readFile(join(dir, path), 'utf8'), path).toBe(content);
    const onDisk = (await git.statusMatrix({ fs, dir })).map(([path]) => path).sort();
    expect(onDisk).toEqual([...state.keys()].sort());
  });

  it('records the abandoned branch against the workspace as it was at the fork', () => {
    const forkParent = realForks(main)[0];
    const abandoned = main.filter((l) => isFileChange(l) && !mainBranch(main).includes(l));
    expect(abandoned).toHaveLength(1);
    const r = abandoned[0]?.toolUseResult as EditResult;
    expect(r.filePath).toBe(join(demo.workspaceDir, 'src/format.ts'));
    expect(r.originalFile).toBe(INITIAL_FILES.get('src/format.ts'));
    // The abandoned prompt and the re-prompt both hang off the end of the first turn.
    const prompts = main.filter((l) => l.parentUuid === forkParent && l.type === 'user');
    expect(prompts.map((l) => String(l.message && (l.message as { content: string }).content).slice(0, 12))).toEqual(['Make the out', 'Actually, sk']);
  });

  it('is deterministic for the same folder and clock, and refuses to overwrite a demo', async () => {
    const again = await createDemo(join(tmp, 'demo-b'), { now: () => NOW });
    const other = await createDemo(join(tmp, 'demo-c'), { now: () => NOW });
    expect(again.sessionId).not.toBe(demo.sessionId);
    expect(other.sessionId).not.toBe(again.sessionId);
    await rm(join(tmp, 'demo-b'), { recursive: true });
    const repeat = await createDemo(join(tmp, 'demo-b'), { now: () => NOW });
    expect(repeat.sessionId).toBe(again.sessionId);
    expect(await readFile(repeat.transcriptFiles[0] ?? '', 'utf8')).toBe(await readFile(again.transcriptFiles[0] ?? '', 'utf8'));
    await expect(createDemo(join(tmp, 'demo-b'), { now: () => NOW })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('stops with CANCELLED when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createDemo(join(tmp, 'demo-d'), { now: () => NOW, signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
