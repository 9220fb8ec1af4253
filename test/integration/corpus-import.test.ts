/**
 * Imports the whole public Claude Code corpus through the service and checks the stored DAG against an
 * independent reading of the files (JSON.parse line by line): every uuid is one node, each node keeps its
 * transcript parentUuid, and every tool call's outcome matches the results recorded anywhere.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../electron/service/arbor-service';
import type { ArborService } from '../../electron/service/service-types';
import type { NodeSummary, ToolOutcome } from '../../shared/model';

const corpus = resolve(__dirname, '../../../shared/corpus/sessions/claude-code');
const present = existsSync(corpus);
if (!present) console.warn(`corpus-import: skipped, ${corpus} is absent (the public corpus lives beside the repo)`);

interface Expected {
  readonly parents: Map<string, string | null>;
  readonly outcomes: Map<string, ToolOutcome>;
}

function transcriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'tool-results' ? [] : transcriptFiles(path);
    return entry.name.endsWith('.jsonl') ? [path] : [];
  });
}

const isSubagentFile = (path: string): boolean => /[\\/]subagents[\\/]/.test(path) || /^agent-.+\.jsonl$/.test(path.split(/[\\/]/).pop() ?? '');

/**
 * The independent reading. A uuid met twice is one node, its first occurrence in import order (session
 * files, then subagent files, each by path) wins; tool_use / tool_result blocks count from that line only
 * (the corpus' fixtures reuse short uuids like "a1" for different lines).
 */
function readCorpus(): Expected {
  const parents = new Map<string, string | null>();
  const uses = new Set<string>();
  const results = new Map<string, boolean>();
  const files = transcriptFiles(corpus).sort(
    (a, b) => Number(isSubagentFile(a)) - Number(isSubagentFile(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
      const value = entry as { uuid?: unknown; parentUuid?: unknown; message?: { content?: unknown } };
      if (typeof value.uuid !== 'string' || parents.has(value.uuid)) continue;
      parents.set(value.uuid, typeof value.parentUuid === 'string' ? value.parentUuid : null);
      const content = value.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as { type?: unknown; id?: unknown; tool_use_id?: unknown; is_error?: unknown }[]) {
        if (block?.type === 'tool_use' && typeof block.id === 'string') uses.add(block.id);
        if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string' && !results.has(block.tool_use_id)) {
          results.set(block.tool_use_id, block.is_error === true);
        }
      }
    }
  }
  const outcomes = new Map<string, ToolOutcome>();
  for (const id of uses) {
    const isError = results.get(id);
    outcomes.set(id, isError === undefined ? 'missing' : isError ? 'error' : 'ok');
  }
  return { parents, outcomes };
}

describe.skipIf(!present)('importing the Claude Code corpus', () => {
  let root: string;
  let service: ArborService;
  let nodes: NodeSummary[];
  let expected: Expected;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'arbor-corpus-'));
    service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
    await service.api['import.run']({ paths: [corpus] });
    const { sessions } = await service.api['sessions.list']({});
    nodes = [];
    for (const session of sessions) nodes.push(...(await service.api['sessions.graph']({ sessionId: session.id })).nodes);
    expected = readCorpus();
  });
  afterAll(async () => {
    await service?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('stores exactly one node per distinct uuid', () => {
    const ids = nodes.map((node) => node.sourceId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected.parents.keys()));
  });

  it("keeps each node's parentUuid as written", () => {
    const wrong = nodes.filter((node) => node.parentSourceId !== expected.parents.get(node.sourceId));
    expect(wrong.map((node) => node.id)).toEqual([]);
    // parentId is the parent when it exists, else null (dangling or a broken cycle).
    const known = new Set(nodes.map((node) => node.id));
    for (const node of nodes) if (node.parentId !== null) expect(known.has(node.parentId) && node.parentId === node.parentSourceId).toBe(true);
  });

  it('pairs every tool call with its outcome', () => {
    const stored = new Map<string, ToolOutcome>();
    for (const node of nodes) for (const call of node.toolCalls) stored.set(call.id, call.outcome);
    expect(stored.size).toBe(expected.outcomes.size);
    const mismatches = [...expected.outcomes].filter(([id, outcome]) => stored.get(id) !== outcome);
    expect(mismatches).toEqual([]);
    expect(new Set(stored.values())).toEqual(new Set(['ok', 'error', 'missing']));
  });

  it('re-importing the unchanged corpus reads nothing', async () => {
    const again = await service.api['import.run']({ paths: [corpus] });
    expect(again.sessions).toEqual([]);
  });
});
