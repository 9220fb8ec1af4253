/**
 * Discovers and parses every Claude Code transcript in the public corpus and checks the parser against
 * expectations computed independently here, with a plain whole-file split and JSON.parse per line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeSearchText, discoverClaudeTranscripts, parseClaudeTranscript } from '../../../electron/importers/claude-code';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../../../electron/importers/transcript';
import type { ImportProblem } from '../../../shared/model';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const present = existsSync(CORPUS);
if (!present) console.warn(`Skipping the Claude Code corpus test: ${CORPUS} is absent.`);

/**
 * Files whose bad lines are genuine: edge_cases.jsonl is built to hold them; ccusage's chat.jsonl is a
 * usage-calculator fixture whose lines have neither `type` nor `uuid`, so they are not transcript entries.
 */
const FILES_WITH_BAD_LINES = ['claude-code-log/fixtures/edge_cases.jsonl', 'ccusage/chat.jsonl'];

type Json = Record<string, unknown>;
interface Expected {
  readonly nodes: [uuid: string, parent: string | null, line: number][];
  readonly records: [type: string, line: number][];
  readonly problemLines: number[];
  readonly toolUses: number;
  readonly toolResults: number;
}

interface Parsed {
  readonly file: TranscriptFile;
  readonly nodes: ParsedNode[];
  readonly records: ParsedRecord[];
  readonly problems: ImportProblem[];
  readonly lines: (Json | null)[];
}

/** The oracle: split the whole file on \n (keeping a final line without newline) and JSON.parse each line. */
function expectations(path: string): { expected: Expected; lines: (Json | null)[] } {
  const text = readFileSync(path, 'utf8');
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  const expected: Expected = { nodes: [], records: [], problemLines: [], toolUses: 0, toolResults: 0 };
  const lines: (Json | null)[] = [];
  let toolUses = 0;
  let toolResults = 0;
  raw.forEach((source, index) => {
    const line = index + 1;
    lines.push(null);
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      expected.problemLines.push(line);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      expected.problemLines.push(line);
      return;
    }
    const entry = value as Json;
    lines[index] = entry;
    if (typeof entry.uuid === 'string') {
      expected.nodes.push([entry.uuid, typeof entry.parentUuid === 'string' ? entry.parentUuid : null, line]);
      const content = (entry.message as Json | undefined)?.content;
      if (Array.isArray(content)) {
        for (const block of content as Json[]) {
          if (entry.type === 'assistant' && block?.type === 'tool_use' && typeof block.id === 'string') toolUses += 1;
          if (entry.type === 'user' && block?.type === 'tool_result') toolResults += 1;
        }
      }
    } else if (typeof entry.type === 'string') expected.records.push([entry.type, line]);
    else expected.problemLines.push(line);
  });
  return { expected: { ...expected, toolUses, toolResults }, lines };
}

describe.skipIf(!present)('Claude Code corpus', () => {
  let files: TranscriptFile[] = [];
  let discoveryProblems: ImportProblem[] = [];
  const parsed: Parsed[] = [];

  beforeAll(async () => {
    ({ files, problems: discoveryProblems } = await discoverClaudeTranscripts([CORPUS]));
    for (const file of files) {
      const nodes: ParsedNode[] = [];
      const records: ParsedRecord[] = [];
      const problems: ImportProblem[] = [];
      const result = await parseClaudeTranscript(
        file,
        { node: (node) => nodes.push(node), record: (record) => records.push(record), problem: (problem) => problems.push(problem) },
        { startOffset: 0, startLine: 1 },
      );
      expect(result.endOffset, file.path).toBe(file.size);
      parsed.push({ file, nodes, records, problems, lines: expectations(file.path).lines });
    }
  });

  it('discovers every transcript and no workflow journal', () => {
    expect(discoveryProblems).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(75);
    expect(files.some((file) => basename(file.path) === 'journal.jsonl')).toBe(false);
    const roles = new Map(files.map((file) => [relative(CORPUS, file.path), file]));
    expect(roles.get('claude-code-log/real_projects/-Users-dain-workspace-coderabbit-review-helper/agent-ea02459f.jsonl')).toMatchObject({ role: 'subagent', agentId: 'ea02459f', sessionHint: null });
    expect(roles.get('spotter/8463c716-a2ea-4c14-9efa-87158ebd9f20/subagents/agent-acompact-f46190.jsonl')).toMatchObject({ role: 'subagent', sessionHint: '8463c716-a2ea-4c14-9efa-87158ebd9f20' });
    expect(roles.get('claude-code-log/fixtures/workflow_basic/11110000-0000-4000-8000-000000000001/subagents/workflows/wf_demo01/agent-ag000001.jsonl')).toMatchObject({ role: 'subagent', agentId: 'ag000001', sessionHint: '11110000-0000-4000-8000-000000000001' });
    const firstSubagent = files.findIndex((file) => file.role === 'subagent');
    expect(files.slice(firstSubagent).every((file) => file.role === 'subagent')).toBe(true);
  });

  it('yields one node per uuid line with its exact parent, and a record per other entry', () => {
    for (const { file, nodes, records } of parsed) {
      const { expected } = expectations(file.path);
      expect(nodes.map((node) => [node.sourceId, node.parentSourceId, node.line]), file.path).toEqual(expected.nodes);
      expect(records.map((record) => [record.type, record.line]), file.path).toEqual(expected.records);
    }
  });

  it('reports problems only for the genuinely bad lines', () => {
    const withProblems = parsed.filter((entry) => entry.problems.length > 0).map((entry) => relative(CORPUS, entry.file.path));
    expect(withProblems.sort()).toEqual([...FILES_WITH_BAD_LINES].sort());
    for (const { file, problems } of parsed) {
      expect(problems.map((problem) => problem.line), file.path).toEqual(expectations(file.path).expected.problemLines);
    }
    const edge = parsed.find((entry) => entry.file.path.endsWith('edge_cases.jsonl'));
    expect(edge?.problems.map((problem) => problem.line)).toEqual([13, 14, 15, 16]);
  });

  it('counts the same tool_use and tool_result blocks', () => {
    let uses = 0;
    let results = 0;
    for (const { file, nodes } of parsed) {
      const { expected } = expectations(file.path);
      const fileUses = nodes.reduce((sum, node) => sum + node.toolUses.length, 0);
      const fileResults = nodes.reduce((sum, node) => sum + node.toolResults.length, 0);
      expect([fileUses, fileResults], file.path).toEqual([expected.toolUses, expected.toolResults]);
      uses += fileUses;
      results += fileResults;
    }
    expect(uses).toBeGreaterThan(1000);
    expect(results).toBeGreaterThan(1000);
  });

  it('keeps labels, search text and raw lines within bounds and exact', () => {
    for (const { file, nodes } of parsed) {
      const bytes = readFileSync(file.path);
      for (const node of nodes) {
        expect(node.label.length, `${file.path}:${node.line}`).toBeLessThanOrEqual(120);
        expect(node.label.includes('\n'), `${file.path}:${node.line}`).toBe(false);
        expect(Buffer.byteLength(node.text ?? claudeSearchText(node.raw))).toBeLessThanOrEqual(32 * 1024);
        const end = bytes.indexOf(0x0a, node.offset);
        expect(node.raw.equals(bytes.subarray(node.offset, end === -1 ? bytes.length : end)), `${file.path}:${node.line}`).toBe(true);
      }
    }
  });

  it('sets kinds by the NODE_KINDS rules on real lines', () => {
    const kinds = new Map<string, number>();
    for (const { nodes } of parsed) for (const node of nodes) kinds.set(node.kind, (kinds.get(node.kind) ?? 0) + 1);
    for (const kind of ['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'error', 'compaction', 'system', 'progress']) {
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    for (const { nodes, lines } of parsed) {
      for (const node of nodes) {
        const entry = lines[node.line - 1];
        if (entry?.type === 'progress' || entry?.type === 'attachment') expect(node.kind).toBe('progress');
        if (entry?.isCompactSummary === true || entry?.subtype === 'compact_boundary') expect(node.kind).toBe('compaction');
        if (node.kind === 'user') expect(entry?.isMeta === true || node.toolResults.length > 0).toBe(false);
      }
    }
  });

  it('gives the same nodes when read in small chunks', async () => {
    for (const { file, nodes } of parsed) {
      const again: ParsedNode[] = [];
      await parseClaudeTranscript(file, { node: (node) => again.push(node), record: () => {}, problem: () => {} }, { startOffset: 0, startLine: 1, chunkSize: 4096 });
      const shape = (node: ParsedNode) => [node.sourceId, node.offset, node.kind, node.label, node.rawBytes];
      expect(again.map(shape), file.path).toEqual(nodes.map(shape));
    }
  });

  it('links Task results to subagent files and inline sidechains to their Task calls', () => {
    const agentIds = new Set(parsed.flatMap(({ nodes }) => nodes.map((node) => node.spawnedAgentId).filter((id) => id !== null)));
    expect(agentIds.has('ea02459f')).toBe(true);
    expect(agentIds.has('cccc333')).toBe(true);

    const inline = parsed.find((entry) => entry.file.path.endsWith('fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    if (inline === undefined) throw new Error('fe5e1c67 sample missing from the corpus');
    const prompts = new Map<string, string>();
    for (const entry of inline.lines) {
      const content = (entry?.message as Json | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Json[]) {
        if (block?.type === 'tool_use' && block.name === 'Task') prompts.set(block.id as string, (block.input as Json).prompt as string);
      }
    }
    const roots = inline.nodes.filter((node) => node.sidechain && node.parentSourceId === null);
    expect(roots).toHaveLength(5);
    for (const root of roots) {
      const content = (inline.lines[root.line - 1]?.message as Json).content as string;
      expect(prompts.get(root.spawnedByToolUseId ?? '')).toBe(content);
    }
  });
});
