/**
 * Appends are linked from the new rows alone (link-state.ts), so a session imported in pieces must come out
 * exactly as the same files imported in one go: every node (id, parent, order, kind, extra edges, tool
 * outcomes) and the session's summary row. Pieces end at random bytes (mid-line, mid-turn), between the
 * lines of one message's parallel calls, right after a compaction boundary, and in a growing subagent file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { demoTranscript } from '../../../electron/demo/demo-script';
import { INITIAL_FILES } from '../../../electron/demo/demo-files';
import { importSessions } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { Random } from '../../../shared/random';
import type { ImportProblem } from '../../../shared/model';
import { appendTranscript, jsonl, prompt, reply, summary, toolCall, toolResult, writeTranscript } from './claude-lines';

let root: string;
const stores: SessionStore[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-pieces-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(root, { recursive: true, force: true });
});

interface Transcript {
  readonly path: string;
  readonly text: Buffer;
  /** Byte offsets where a piece must end, besides the random ones. */
  readonly forcedCuts: readonly number[];
}

function openStore(name: string): SessionStore {
  const store = openSessionStore(join(root, `${name}.sqlite`));
  stores.push(store);
  return store;
}

async function importAll(store: SessionStore, projects: string): Promise<readonly ImportProblem[]> {
  return (await importSessions(store, transcriptReader, [projects], { jobId: 'pieces', workerFromBytes: Infinity })).problems;
}

function write(projects: string, transcript: Transcript, bytes: number): void {
  const path = join(projects, transcript.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, transcript.text.subarray(0, bytes));
}

/** Line starts (byte offsets) of lines matching `test`. */
function lineStarts(lines: readonly string[], test: (line: string, index: number) => boolean): number[] {
  const starts: number[] = [];
  let offset = 0;
  lines.forEach((line, index) => {
    if (test(line, index)) starts.push(offset);
    offset += Buffer.byteLength(line) + 1;
  });
  return starts;
}

function transcript(path: string, lines: readonly string[]): Transcript {
  const parsed = lines.map((line) => JSON.parse(line) as { type?: string; subtype?: string; message?: { id?: string; content?: { type?: string }[] } });
  const toolUse = (index: number) => parsed[index]?.type === 'assistant' && parsed[index]?.message?.content?.[0]?.type === 'tool_use';
  // Between two tool_use lines of one message (parallel calls), and just after a compaction boundary.
  const parallel = lineStarts(lines, (_, index) => index > 0 && toolUse(index) && toolUse(index - 1) && parsed[index]?.message?.id === parsed[index - 1]?.message?.id);
  const afterCompaction = lineStarts(lines, (_, index) => index > 0 && parsed[index - 1]?.subtype === 'compact_boundary');
  return { path, text: Buffer.from(lines.map((line) => `${line}\n`).join('')), forcedCuts: [...parallel.slice(0, 2), ...afterCompaction.slice(0, 1)] };
}

function corpus(seed: number): Transcript[] {
  const random = new Random(seed);
  const demo = demoTranscript('/home/dev/tally', INITIAL_FILES, new Date(Date.UTC(2026, 0, 5, 9)), random);
  const synthetic = [...syntheticSessionLines(900, { seed, shapes: true, sessionId: `synthetic-${seed}`, cwd: '/home/dev/shapes' })];
  // Written by hand: a cycle that closes in a later piece (x → z → y → x), a summary before the node it
  // names, a parent stored after its child.
  const odd = jsonl([
    prompt('x', 'z', 'one', 'S-odd'),
    summary('Titled by a later node', 'late'),
    reply('y', 'x', 'two', 'S-odd'),
    prompt('orphan', 'late', 'waits for its parent', 'S-odd'),
    reply('z', 'y', 'three', 'S-odd'),
    prompt('late', null, 'arrives last', 'S-odd', 30),
  ]).trimEnd().split('\n');
  return [
    transcript(`-home-dev-tally/${demo.sessionId}.jsonl`, demo.lines),
    transcript(`-home-dev-tally/${demo.sessionId}/subagents/agent-${demo.subagent.agentId}.jsonl`, demo.subagent.lines),
    transcript(`-home-dev-shapes/synthetic-${seed}.jsonl`, synthetic),
    transcript('-home-dev-odd/S-odd.jsonl', odd),
  ];
}

function snapshot(store: SessionStore) {
  return store
    .listSessions({})
    .sessions.map((session) => ({ session, nodes: store.getSessionNodes(session.id) }))
    .sort((a, b) => (a.session.id < b.session.id ? -1 : 1));
}

const cycleProblems = (problems: readonly ImportProblem[]) => problems.filter((problem) => problem.reason.startsWith('parent cycle'));

for (const seed of [11, 23, 47]) {
  it(`a session imported in appended pieces equals it imported in one go (seed ${seed})`, async () => {
    const files = corpus(seed);
    const whole = openStore('whole');
    const wholeProjects = join(root, 'whole');
    for (const file of files) write(wholeProjects, file, file.text.length);
    const wholeProblems = await importAll(whole, wholeProjects);

    const pieces = openStore('pieces');
    const projects = join(root, 'pieces');
    const random = new Random(seed);
    const cuts = files.map((file) => {
      const firstLine = file.text.indexOf(10) + 1;
      const random6 = Array.from({ length: 6 }, () => random.int(firstLine, file.text.length));
      // Each file starts in the first piece (file ids, hence transcript order, match the one-go import).
      return [firstLine, ...random6, ...file.forcedCuts.filter((cut) => cut >= firstLine), file.text.length].sort((a, b) => a - b);
    });
    const rounds = Math.max(...cuts.map((list) => list.length));
    const problems: ImportProblem[] = [];
    for (let round = 0; round < rounds; round++) {
      files.forEach((file, index) => write(projects, file, cuts[index]![Math.min(round, cuts[index]!.length - 1)]!));
      problems.push(...(await importAll(pieces, projects)));
    }

    const expected = snapshot(whole);
    expect(expected.map((entry) => entry.nodes.length).reduce((a, b) => a + b)).toBeGreaterThan(900);
    expect(snapshot(pieces)).toEqual(expected);
    // The hand-written cases did happen: one cycle (reported once either way), a late parent, a summary title.
    expect(cycleProblems(wholeProblems)).toHaveLength(1);
    expect(cycleProblems(problems).map((problem) => problem.line)).toEqual(cycleProblems(wholeProblems).map((problem) => problem.line));
    const odd = expected.find((entry) => entry.session.id === 'S-odd');
    expect(odd?.session.title).toBe('Titled by a later node');
    expect(odd?.nodes.find((node) => node.id === 'orphan')?.parentId).toBe('late');
    // The forced cuts exist: parallel calls and a compaction were split across pieces.
    expect(files[2]!.forcedCuts.length).toBeGreaterThanOrEqual(2);
    expect(files[1]!.text.length).toBeGreaterThan(0);
  });
}

it('regression: a result whose call an earlier import read was labelled "tool result"; now by its tool', async () => {
  const store = openStore('store');
  const file = join(root, 'p', '-repo', 'S1.jsonl');
  writeTranscript(file, [prompt('u1', null, 'read it'), toolCall('a1', 'u1', 'toolu_1', 'Read', { file_path: '/repo/a.py' })]);
  await importAll(store, join(root, 'p'));
  appendTranscript(file, jsonl([toolResult('r1', 'a1', 'toolu_1', 'print(1)')]));
  await importAll(store, join(root, 'p'));
  expect(store.getSessionNodes('S1').find((node) => node.id === 'r1')?.label).toBe('✓ Read — print(1)');
});
