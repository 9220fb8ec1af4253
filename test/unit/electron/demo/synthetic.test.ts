import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeProjectDir, syntheticSessionLines, writeSyntheticCorpus } from '../../../../electron/demo/synthetic';
import { structuredPatch } from '../../../../electron/demo/structured-patch';
import { applyHunks, blocks, type Hunk, isPrompt, parseTranscript, realForks } from './transcript-checks';

const lines = (nodes: number, seed: number) => [...syntheticSessionLines(nodes, { seed })];

describe('syntheticSessionLines', () => {
  const text = lines(3000, 42);
  const parsed = parseTranscript(text);
  const nodes = parsed.filter((l) => typeof l.uuid === 'string');

  it('is deterministic for a seed and differs between seeds', () => {
    expect(lines(300, 42)).toEqual(lines(300, 42));
    expect(lines(300, 43)).not.toEqual(lines(300, 42));
  });

  it('writes about the requested number of uuid lines, in one session and cwd', () => {
    expect(nodes.length).toBeGreaterThanOrEqual(3000);
    expect(nodes.length).toBeLessThan(3000 + 60);
    expect(new Set(nodes.map((l) => l.sessionId)).size).toBe(1);
    expect(new Set(nodes.map((l) => l.cwd)).size).toBe(1);
    const opts = { seed: 1, sessionId: 'ab6c1f7e-52b4-4a8e-9d2e-0c4f2a9b7e11', cwd: '/tmp/x y', startTime: new Date('2026-03-01T10:00:00Z') };
    const first = JSON.parse([...syntheticSessionLines(20, opts)][0] ?? '{}') as Record<string, unknown>;
    expect(first).toMatchObject({ sessionId: opts.sessionId, cwd: '/tmp/x y', timestamp: '2026-03-01T10:00:00.000Z' });
  });

  it('has realistic line sizes: ~1–3 KB on average, some 20 KB+ tool outputs', () => {
    const bytes = text.reduce((sum, l) => sum + Buffer.byteLength(l), 0);
    expect(bytes / text.length).toBeGreaterThan(1000);
    expect(bytes / text.length).toBeLessThan(3500);
    expect(text.filter((l) => l.length > 20_000).length).toBeGreaterThan(0);
  });

  it('writes one line per assistant content block, lines of one message sharing message.id', () => {
    const assistants = parsed.filter((l) => l.type === 'assistant');
    for (const a of assistants) expect(blocks(a)).toHaveLength(1);
    const ids = new Map<string, number>();
    for (const a of assistants) {
      const id = (a.message as { id: string }).id;
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
    expect([...ids.values()].some((n) => n >= 3)).toBe(true);
    expect(assistants.some((a) => blocks(a)[0]?.type === 'thinking')).toBe(true);
  });

  it('pairs every tool_use with one tool_result parented on the line that made the call', () => {
    const calls = new Map<string, string>();
    for (const l of parsed) for (const b of blocks(l)) if (b.type === 'tool_use') calls.set(String(b.id), String(l.uuid));
    const results = parsed.flatMap((l) => blocks(l).filter((b) => b.type === 'tool_result').map((b) => ({ l, b })));
    expect(results.length).toBe(calls.size);
    for (const { l, b } of results) {
      expect(l.parentUuid).toBe(calls.get(String(b.tool_use_id)));
      expect(l.sourceToolAssistantUUID).toBe(l.parentUuid);
    }
    expect(results.some(({ b }) => b.is_error === true)).toBe(true);
  });

  it('has parallel tool calls, progress lines, rewinds and a compaction', () => {
    const byMessage = new Map<string, number>();
    for (const l of parsed) {
      if (l.type !== 'assistant' || blocks(l)[0]?.type !== 'tool_use') continue;
      const id = (l.message as { id: string }).id;
      byMessage.set(id, (byMessage.get(id) ?? 0) + 1);
    }
    expect([...byMessage.values()].some((n) => n >= 2)).toBe(true);
    expect(parsed.some((l) => l.type === 'progress' && (l.data as { type: string }).type === 'hook_progress')).toBe(true);
    expect(parsed.some((l) => l.type === 'file-history-snapshot')).toBe(true);
    expect(realForks(parsed).length).toBeGreaterThan(0);
    const boundary = parsed.find((l) => l.subtype === 'compact_boundary');
    expect(boundary?.parentUuid).toBeNull();
    expect(nodes.some((l) => l.uuid === boundary?.logicalParentUuid)).toBe(true);
    const summary = parsed.find((l) => l.isCompactSummary === true);
    expect(summary?.parentUuid).toBe(boundary?.uuid);
    expect(parsed.filter(isPrompt).length).toBeGreaterThan(5);
  });

  it('records Edit/Write results whose structuredPatch turns originalFile into the new content', () => {
    const edits = parsed.filter((l) => {
      const r = l.toolUseResult as { structuredPatch?: unknown } | undefined;
      return typeof r === 'object' && r !== null && Array.isArray(r.structuredPatch);
    });
    expect(edits.length).toBeGreaterThan(20);
    for (const l of edits) {
      const r = l.toolUseResult as { originalFile: string | null; oldString?: string; newString?: string; content?: string; structuredPatch: Hunk[] };
      if (r.originalFile === null) continue;
      const after = r.oldString !== undefined ? r.originalFile.replace(r.oldString, () => r.newString ?? '') : (r.content ?? '');
      expect(applyHunks(r.originalFile, r.structuredPatch)).toBe(after);
    }
  });

  it('streams 50k nodes without holding the session in memory', () => {
    const before = process.memoryUsage().heapUsed;
    let count = 0;
    let peak = 0;
    for (const line of syntheticSessionLines(50_000, { seed: 7 })) {
      if (line.startsWith('{"parentUuid"')) count++;
      if (count % 5000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    }
    expect(count).toBeGreaterThanOrEqual(50_000);
    // The session itself is ~140 MB of text; streaming keeps the heap far below that.
    expect(peak).toBeLessThan(80 * 1024 * 1024);
  });
});

describe('syntheticSessionLines with the reconstruction shapes (issue 10)', () => {
  const parsed = parseTranscript([...syntheticSessionLines(4000, { seed: 3, shapes: true })]);
  const uuids = new Set(parsed.map((l) => l.uuid).filter((id) => id !== undefined));
  type EditResult = { filePath: string; originalFile: string | null; oldString: string; newString: string; structuredPatch: Hunk[] };
  const edits = parsed.flatMap((l) => {
    const r = l.toolUseResult as Partial<EditResult> | undefined;
    return typeof r === 'object' && r !== null && typeof r.oldString === 'string' ? [r as EditResult] : [];
  });

  it('writes display-only hunks for tab-indented files, where the strings stay exact', () => {
    const tabbed = edits.filter((r) => r.originalFile?.includes('\n\t') === true && r.newString.includes('\t'));
    expect(tabbed.length).toBeGreaterThan(5);
    for (const r of tabbed) expect(r.structuredPatch.every((h) => h.lines.every((line) => !line.slice(1).startsWith('\t')))).toBe(true);
    expect(edits.some((r) => r.newString === '')).toBe(true);
    expect(edits.some((r) => (r as { replaceAll?: boolean }).replaceAll === true)).toBe(true);
    const multi = parsed.map((l) => l.toolUseResult as { edits?: unknown[]; originalFileContents?: string } | undefined).filter((r) => Array.isArray(r?.edits));
    expect(multi.length).toBeGreaterThan(3);
    expect(multi.every((r) => typeof r!.originalFileContents === 'string' && r!.edits!.length >= 2)).toBe(true);
  });

  it('writes three or more parallel calls whose results arrive out of call order', () => {
    const callsOf = new Map<string, string[]>();
    for (const l of parsed) {
      const block = blocks(l)[0];
      if (l.type === 'assistant' && block?.type === 'tool_use') {
        const id = (l.message as { id: string }).id;
        callsOf.set(id, [...(callsOf.get(id) ?? []), String(block.id)]);
      }
    }
    const resultOrder = parsed.flatMap((l) => blocks(l).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)));
    const batches = [...callsOf.values()].filter((ids) => ids.length >= 3);
    expect(batches.length).toBeGreaterThan(5);
    expect(batches.some((ids) => ids.join() !== resultOrder.filter((id) => ids.includes(id)).join())).toBe(true);
  });

  it('writes roots in the middle of the file: a prompt, and a compaction whose logical parent is in no file', () => {
    const roots = parsed.filter((l, i) => i > 1 && typeof l.uuid === 'string' && l.parentUuid === null);
    expect(roots.some((l) => isPrompt(l))).toBe(true);
    expect(roots.some((l) => l.subtype === 'compact_boundary' && !uuids.has(String(l.logicalParentUuid)))).toBe(true);
  });

  it('changes files outside the transcript: a shell command, or between turns', () => {
    expect(parsed.some((l) => blocks(l).some((b) => b.type === 'tool_use' && b.name === 'Bash' && String((b.input as { command: string }).command).startsWith('sed -i')))).toBe(true);
    // The user's change between turns is read by a later Edit: nothing in the transcript made it.
    expect(edits.some((r) => r.originalFile?.includes('// touched outside the session') === true)).toBe(true);
  });
});

describe('structuredPatch', () => {
  it('handles insertions, deletions, whole rewrites and a missing final newline', () => {
    const cases: [string, string][] = [
      ['a\nb\nc\nd\ne\nf\ng\nh\n', 'a\nb\nc\nX\nY\ne\nf\ng\nh\n'],
      ['a\nb\nc\n', 'a\nc\n'],
      ['a\nb\n', 'x\ny\nz\n'],
      ['a\nb', 'a\nb\nc'],
      ['a\nb\n', 'a\nb'],
      ['', 'new\n'],
    ];
    for (const [before, after] of cases) expect(applyHunks(before, structuredPatch(before, after) as Hunk[])).toBe(after);
    expect(structuredPatch('same\n', 'same\n')).toEqual([]);
  });
});

describe('writeSyntheticCorpus', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes sessions into encoded project folders until about totalBytes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'arbor-synthetic-'));
    const totalBytes = 6 * 1024 * 1024;
    const result = await writeSyntheticCorpus(dir, { totalBytes, nodesPerSession: 800, seed: 5 });
    expect(result.files.length).toBeGreaterThan(1);
    let onDisk = 0;
    let nodes = 0;
    for (const file of result.files) {
      expect(file.startsWith(dir)).toBe(true);
      expect(file).toMatch(/\/-home-dev-projects-[a-z-]+\/[0-9a-f-]{36}\.jsonl$/);
      onDisk += (await stat(file)).size;
      const text = (await readFile(file, 'utf8')).split('\n');
      expect(text.pop()).toBe('');
      nodes += parseTranscript(text).filter((l) => typeof l.uuid === 'string').length;
    }
    expect(result.bytes).toBe(onDisk);
    expect(result.nodes).toBe(nodes);
    expect(result.bytes).toBeGreaterThanOrEqual(totalBytes);
    expect(result.bytes).toBeLessThan(totalBytes * 1.3);
    expect((await readdir(dir)).every((name) => /^[a-zA-Z0-9-]+$/.test(name))).toBe(true);
  });

  it('encodes a cwd like Claude Code does', () => {
    expect(encodeProjectDir('/Users/me/my_project.v2')).toBe('-Users-me-my-project-v2');
  });
});
