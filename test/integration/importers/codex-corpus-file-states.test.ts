/**
 * Golden file states for the public Codex rollouts that patch files (../shared/corpus/sessions/codex, read from
 * there, never copied). Expectations come from reading each file's lines here (the patches' paths, what they
 * add, the patch_apply_end changes), not from the parser's output.
 */
import { existsSync, mkdirSync, readFileSync, copyFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from '../service/service-harness';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/codex');
const present = existsSync(CORPUS);
if (!present) console.warn(`Codex corpus not found at ${CORPUS}: file-state golden tests skipped`);

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

type Line = { type: string; payload: Record<string, unknown> };
const linesOf = (path: string): Line[] => readFileSync(path, 'utf8').split('\n').filter((line) => line.trim().length > 0).flatMap((line) => {
  try {
    return [JSON.parse(line) as Line];
  } catch {
    return [];
  }
});

/** Imports a copy in the test's temp folder (the store reads it there; the corpus stays where it is). */
async function importCorpus(relative: string) {
  const dir = join(h.root, 'codex');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(CORPUS, relative), join(dir, basename(relative)));
  await h.service.api['import.run']({ paths: [dir] });
  const sessionId = (await h.service.api['sessions.list']({})).sessions[0]!.id;
  return (await h.service.api['sessions.graph']({ sessionId })).nodes;
}

describe.skipIf(!present)('Codex corpus file states', () => {
  it('claude-code-log: the Add File makes gamma.txt known with its + lines at the patch outcome; the MCP call after it leaves it in doubt', async () => {
    const relative = 'claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl';
    const lines = linesOf(join(CORPUS, relative));
    const cwd = lines[0]!.payload.cwd as string;
    const patch = lines.find((line) => line.payload.type === 'custom_tool_call')!.payload.input as string;
    const path = /\*\*\* Add File: (.+)/.exec(patch)![1]!;
    const added = patch.split('\n').filter((line) => line.startsWith('+')).map((line) => `${line.slice(1)}\n`).join('');
    const nodes = await importCorpus(relative);
    const call = nodes.findIndex((node) => node.toolCalls.some((ref) => ref.name === 'apply_patch'));
    const before = await h.service.api['nodes.file']({ nodeId: nodes[call]!.id, path: join(cwd, path) });
    expect([before.known, before.reason]).toEqual(['unknown', 'no-pre-state']);
    const outcome = await h.service.api['nodes.file']({ nodeId: nodes[call + 1]!.id, path: join(cwd, path) });
    expect([outcome.known, outcome.content]).toEqual(['reconstructed', added]);
    const mcp = nodes.find((node) => node.toolCalls.some((ref) => ref.name.startsWith('mcp__')))!;
    const last = await h.service.api['nodes.file']({ nodeId: nodes[nodes.length - 1]!.id, path: join(cwd, path) });
    expect([last.known, last.reason, last.unknownSince]).toEqual(['unknown', 'other-tool', nodes[nodes.indexOf(mcp) + 1]!.id]);
  });

  it('codemie-code: each Update File names the path patch_apply_end reports, and a file never seen whole stays unknown (no pre-state)', async () => {
    const relative = 'codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    const lines = linesOf(join(CORPUS, relative));
    const reported = lines.filter((line) => line.payload.type === 'patch_apply_end').flatMap((line) => Object.keys(line.payload.changes as object));
    expect(reported.length).toBe(3);
    const nodes = await importCorpus(relative);
    const files = await h.service.api['nodes.files']({ nodeId: nodes[nodes.length - 1]!.id });
    expect(files.files.map((file) => file.path).sort()).toEqual([...reported].sort());
    for (const file of files.files) expect([file.path, file.known === 'unknown' ? file.reason : file.known]).toEqual([file.path, 'no-pre-state']);
  });
});
