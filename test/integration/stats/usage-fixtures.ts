/**
 * Hand-counted transcripts for tokens and cost, written with Arbor's own generators (electron/demo): every
 * figure the tests expect is counted here, beside the lines that make it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleRollout } from '../../../electron/demo/codex-rollout';
import { encodeProjectDir } from '../../../electron/demo/synthetic';
import { TranscriptBuilder, type Usage } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

export const SESSION_A = 'a0000000-0000-4000-8000-00000000000a';
export const SESSION_B = 'b0000000-0000-4000-8000-00000000000b';
export const SESSION_C = 'c0000000-0000-4000-8000-00000000000c';
export const SESSION_D = '019e0000-0000-7000-8000-0000000000dd';
export const APP = '/work/app';
export const OTHER = '/work/other';
export const SONNET = 'claude-sonnet-4-5-20250929';

const usage = (input: number, cacheWrite: number, cacheRead: number, output: number): Usage => ({
  input_tokens: input,
  cache_creation_input_tokens: cacheWrite,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
});

/** The figures the fixtures add up to, counted by hand. */
export const EXPECTED = {
  // reply 1 (three lines, one message.id): 100 / 30 / 1000 / 50; reply 2: 10 / 5 / 200 / 0
  a: { input: 110, output: 35, cacheRead: 1200, cacheWrite: 50 },
  // sonnet-4*: $3 in, $15 out, $0.30 cache read, $3.75 cache write per Mtok
  aUsd: (110 * 3 + 35 * 15 + 1200 * 0.3 + 50 * 3.75) / 1e6,
  // the fork's own reply only: its copies of A's lines count in A
  b: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  bUsd: (1 * 3 + 2 * 15) / 1e6,
  // an unknown model's reply (7 + 3) and a reply carrying costUSD 0.25 (1000 + 100)
  c: { input: 1007, output: 103, cacheRead: 0, cacheWrite: 0 },
  cUnknownTokens: 10,
  cReportedUsd: 0.25,
  // Codex: two replies of 1200 input (800 of them cached) and 90 output; gpt-5*: $1.25, $10, $0.125 cached
  d: { input: 800, output: 180, cacheRead: 1600, cacheWrite: 0 },
  dUsd: (800 * 1.25 + 180 * 10 + 1600 * 0.125) / 1e6,
};

export interface UsageFixtures {
  /** The folders to import. */
  readonly paths: readonly string[];
  /** The last line of A (its branch head) and of B. */
  readonly headA: string;
  readonly headB: string;
}

function write(file: string, lines: readonly string[]): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
}

export async function writeUsageFixtures(root: string): Promise<UsageFixtures> {
  const projects = join(root, 'claude-projects');
  const scope = (sessionId: string, cwd: string) => ({ sessionId, cwd, version: '2.1.39', gitBranch: 'main', slug: 'counted-tokens' });

  const a = new TranscriptBuilder(scope(SESSION_A, APP), new Random(1), new Date('2026-11-01T10:00:00Z'));
  a.userPrompt('Add a --verbose flag');
  const first = a.assistant(
    [
      { type: 'thinking', thinking: 'Find the option parser', signature: 'sig' },
      { type: 'text', text: 'I will add the flag.' },
      { type: 'tool_use', id: a.toolUseId(), name: 'Read', input: { file_path: `${APP}/cli.ts` } },
    ],
    SONNET,
    usage(100, 50, 1000, 30),
    'tool_use',
  );
  a.toolResult(first.calls[0]!, 'export const options = {};', { type: 'text' });
  a.assistant([{ type: 'text', text: 'Done: the flag is parsed.' }], SONNET, usage(10, 0, 200, 5), 'end_turn');
  const headA = a.last!;
  const linesA = a.take();
  write(join(projects, encodeProjectDir(APP), `${SESSION_A}.jsonl`), linesA);

  const b = new TranscriptBuilder(scope(SESSION_B, APP), new Random(2), new Date('2026-11-02T10:00:00Z'));
  b.forkCopies(linesA, SESSION_A, { newUuids: true });
  b.userPrompt('Try it with an environment variable instead');
  b.assistant([{ type: 'text', text: 'Now read from ARBOR_VERBOSE.' }], SONNET, usage(1, 0, 0, 2), 'end_turn');
  const headB = b.last!;
  write(join(projects, encodeProjectDir(APP), `${SESSION_B}.jsonl`), b.take());

  const c = new TranscriptBuilder(scope(SESSION_C, OTHER), new Random(3), new Date('2026-11-02T12:00:00Z'));
  c.userPrompt('Summarise the logs');
  c.assistant([{ type: 'text', text: 'Nothing unusual.' }], 'mystery-model-1', usage(7, 0, 0, 3), 'end_turn');
  c.userPrompt('And the errors?');
  c.assistant([{ type: 'text', text: 'Two timeouts.' }], SONNET, usage(1000, 0, 0, 100), 'end_turn');
  // Old Claude Code wrote the reply's own cost beside it.
  const linesC = c.take().map((line, index, all) => (index === all.length - 1 ? JSON.stringify({ ...(JSON.parse(line) as object), costUSD: EXPECTED.cReportedUsd }) : line));
  write(join(projects, encodeProjectDir(OTHER), `${SESSION_C}.jsonl`), linesC);

  const codex = join(root, 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(codex, { recursive: true });
  await sampleRollout({ id: SESSION_D, cwd: APP }).write(join(codex, `rollout-2026-11-30T09-00-00-${SESSION_D}.jsonl`));

  return { paths: [projects, join(root, 'codex')], headA, headB };
}
