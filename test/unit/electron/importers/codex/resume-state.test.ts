/**
 * A grown rollout goes on from what the last reading kept (issue 12: an append re-read the whole rollout): only
 * the appended lines are read, and they give what a reading of the whole file gives them; a rewritten file is read
 * from its start again.
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../../../electron/demo/codex-rollout';
import { parseCodexRollout } from '../../../../../electron/importers/codex';
import type { ParsedNode, ParseResult } from '../../../../../electron/importers/transcript';
import { codexFile } from './parse-helpers';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-codex-resume-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ID = '019e0000-0000-7000-8000-0000000000a1';
const scope = { id: ID, cwd: '/work/app' };

interface Reading extends ParseResult {
  readonly nodes: ParsedNode[];
  readonly records: number;
  /** Bytes the parser read (onBytes: counted from where it started reading). */
  readonly bytesRead: number;
  /** The keys kept after this reading, as the store keeps them (resumeKeys replacing or added to the last ones). */
  readonly kept: ReadonlyMap<string, string>;
}

type ReadFrom = { readonly endOffset: number; readonly endLine: number; readonly resumeState?: string | null; readonly kept?: ReadonlyMap<string, string> };

async function read(path: string, from: ReadFrom | null = null): Promise<Reading> {
  const nodes: ParsedNode[] = [];
  let records = 0;
  let bytesRead = 0;
  const before = from?.kept ?? new Map<string, string>();
  const end = await parseCodexRollout(
    await codexFile(path),
    { node: (node) => nodes.push(node), record: () => records++, problem: () => {} },
    {
      startOffset: from?.endOffset ?? 0,
      startLine: from?.endLine ?? 1,
      resumeState: from?.resumeState ?? null,
      resumeKey: (key) => before.get(key) ?? null,
      onBytes: (bytes) => (bytesRead = bytes),
    },
  );
  const kept = new Map(end.resumeKeys?.whole === false ? before : []);
  for (const [key, value] of end.resumeKeys?.entries ?? []) kept.set(key, value);
  return { ...end, nodes, records, bytesRead, kept };
}

/** What the store keeps of a node, raw bytes aside. */
const rows = (nodes: readonly ParsedNode[]) =>
  nodes.map((node) => [node.sourceId, node.parentSourceId, node.kind, node.label, node.toolUses, node.toolResults, node.cwd, node.model, node.usage, node.line]);

/** Writes the first `cut` lines, reads them, appends the rest and reads on from the kept state. */
async function grown(lines: readonly string[], cut: number): Promise<{ whole: Reading; first: Reading; second: Reading; appendedBytes: number }> {
  const wholePath = join(dir, 'whole.jsonl');
  await writeFile(wholePath, `${lines.join('\n')}\n`);
  const whole = await read(wholePath);
  const path = join(dir, 'growing.jsonl');
  await writeFile(path, `${lines.slice(0, cut).join('\n')}\n`);
  const first = await read(path);
  const appended = `${lines.slice(cut).join('\n')}\n`;
  await appendFile(path, appended);
  const second = await read(path, first);
  return { whole, first, second, appendedBytes: Buffer.byteLength(appended) };
}

it('a grown rollout reads only its appended lines and gives them the rows a reading of the whole file gives', async () => {
  const builder = sampleRollout(scope);
  for (let turn = 0; turn < 30; turn++) {
    builder.user(`Turn ${turn}`).command(`npm test -- ${turn}`, { exitCode: turn % 2, output: `output ${turn}\n`.repeat(20) }).agent(`Done ${turn}`).complete();
  }
  const lines = builder.take();
  const cut = lines.length - 12;
  const { whole, first, second, appendedBytes } = await grown(lines, cut);
  expect(first.resumeState).toEqual(expect.any(String));
  expect(second.nodes.length).toBeGreaterThan(3);
  expect(rows([...first.nodes, ...second.nodes])).toEqual(rows(whole.nodes));
  expect(first.records + second.records).toBe(whole.records);
  expect(second.endOffset).toBe(whole.endOffset);
  // From the resume point on, not from the start.
  expect(second.bytesRead).toBe(appendedBytes);
  expect(second.bytesRead).toBeLessThan(whole.bytesRead / 4);
});

it('a call whose output arrives in the appended part pairs with it, and a call id used again is numbered on', async () => {
  const builder = new RolloutBuilder(scope).user('Run the build');
  const callId = builder.nextCallId();
  builder.emit('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm run build' }), call_id: callId });
  const cut = builder.take().length;
  builder
    .emit('response_item', { type: 'function_call_output', call_id: callId, output: 'Process exited with code 0\nOutput:\nbuilt' })
    // The same id again (a resumed rollout numbers its calls anew): its own call, paired with its own output.
    .emit('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }), call_id: callId })
    .emit('response_item', { type: 'function_call_output', call_id: callId, output: 'Process exited with code 1\nOutput:\nfailed' })
    .agent('Built; one test fails.');
  const lines = builder.take();
  const { whole, first, second } = await grown(lines, cut);
  expect(rows([...first.nodes, ...second.nodes])).toEqual(rows(whole.nodes));
  const results = second.nodes.flatMap((node) => node.toolResults.map((result) => result.toolUseId));
  expect(results).toEqual([callId, `${callId}#2`]);
  expect(second.nodes.flatMap((node) => node.toolUses.map((use) => use.id))).toEqual([`${callId}#2`]);
  // The first output is labelled by its call's tool, which only the part read before names.
  expect(second.nodes[0]?.label).toMatch(/^✓ exec_command/);
  expect(second.nodes[0]?.parentSourceId).toBe(first.nodes.at(-1)?.sourceId);
});

it('a rewritten rollout (its first lines changed) is read from its start again, as without a kept state', async () => {
  const lines = sampleRollout(scope).take();
  const path = join(dir, 'rewritten.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  const first = await read(path);
  // Same thread, another first turn, and longer: the kept offset now falls inside other lines.
  const other = new RolloutBuilder(scope).user('Something else entirely').agent('Sure.').take();
  await writeFile(path, `${[...other, ...lines].join('\n')}\n`);
  const resumed = await read(path, first);
  const stateless = await read(path, { endOffset: first.endOffset, endLine: first.endLine, resumeState: null });
  expect(resumed.bytesRead).toBe(stateless.bytesRead);
  expect(resumed.bytesRead).toBeGreaterThan(first.endOffset);
  expect(rows(resumed.nodes)).toEqual(rows(stateless.nodes));
});

it('a state kept at another offset is not used (an import stopped between its rows and its state)', async () => {
  const lines = sampleRollout(scope).take();
  const path = join(dir, 'moved.jsonl');
  await writeFile(path, `${lines.slice(0, 6).join('\n')}\n`);
  const early = await read(path);
  await appendFile(path, `${lines.slice(6, 10).join('\n')}\n`);
  const later = await read(path, early);
  await appendFile(path, `${lines.slice(10).join('\n')}\n`);
  // The rows reached `later`, the state stayed at `early`: read from the start, emitting from `later` on.
  const mismatched = await read(path, { endOffset: later.endOffset, endLine: later.endLine, resumeState: early.resumeState, kept: later.kept });
  const resumed = await read(path, later);
  expect(mismatched.bytesRead).toBeGreaterThan(resumed.bytesRead);
  expect(rows(mismatched.nodes)).toEqual(rows(resumed.nodes));
});

/** The kept keys, counting the parser's lookups of them. */
class CountedLookups extends Map<string, string> {
  lookups = 0;
  override get(key: string): string | undefined {
    this.lookups++;
    return super.get(key);
  }
}

/** A rollout of `turns` turns (each a command and a patch, two calls), read, then three more turns appended and read on. */
async function appendedTo(name: string, turns: number): Promise<{ first: Reading; second: Reading; lookups: number; whole: Reading }> {
  const builder = new RolloutBuilder(scope);
  const turn = (at: number) =>
    builder.user(`Turn ${at}`).command(`npm test -- ${at}`, { exitCode: at % 2, output: `output ${at}\n` }).patch(`src/m${at % 5}.ts`, `a${at}`, `b${at}`, true).agent(`Done ${at}`).complete();
  for (let at = 0; at < turns; at++) turn(at);
  const before = builder.drain();
  for (let at = turns; at < turns + 3; at++) turn(at);
  const after = builder.drain();
  const path = join(dir, `${name}.jsonl`);
  await writeFile(path, `${before.join('\n')}\n`);
  const first = await read(path);
  await appendFile(path, `${after.join('\n')}\n`);
  const kept = new CountedLookups(first.kept);
  const second = await read(path, { ...first, kept });
  const wholePath = join(dir, `${name}-whole.jsonl`);
  await writeFile(wholePath, `${[...before, ...after].join('\n')}\n`);
  return { first, second, lookups: kept.lookups, whole: await read(wholePath) };
}

it('an append keeps, looks up and writes back state for its own calls only, however many calls the rollout made before', async () => {
  const small = await appendedTo('small', 10);
  const big = await appendedTo('big', 400);
  expect(big.first.kept.size).toBeGreaterThan(small.first.kept.size * 20);
  // The state itself does not hold the calls: the same size (ids and offsets aside) for 20 calls and for 800.
  expect(big.first.resumeState!.length).toBeLessThan(small.first.resumeState!.length + 100);
  // What the append writes back: its own six calls, added to what was kept.
  expect(small.second.resumeKeys).toEqual({ whole: false, entries: expect.any(Array) });
  expect(big.second.resumeKeys!.entries.length).toBe(small.second.resumeKeys!.entries.length);
  expect(big.second.resumeKeys!.entries.length).toBe(6);
  // What it looks up: the calls its lines name, once each (none is an earlier call's id here).
  expect(big.lookups).toBe(small.lookups);
  expect(big.lookups).toBeLessThanOrEqual(6);
  // And what it reads is still what a reading of the whole rollout gives.
  expect(rows([...big.first.nodes, ...big.second.nodes])).toEqual(rows(big.whole.nodes));
  expect(big.second.kept.size).toBe(big.whole.kept.size);
});
