/**
 * `arbor tree` through the CLI on imported sessions (issue 13): only real branch points open branches;
 * hooks, progress, parallel tool results and compaction roots stay inline and the conversation keeps its
 * indentation after them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';
import { openCliDemo, type CliDemo } from './run-cli';

const indentOf = (line: string): string => /^[│├└─┆\d ]*/.exec(line)![0];
const USAGE = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };

let demo: CliDemo;

beforeAll(async () => {
  demo = await openCliDemo('arbor-tree-');
}, 60_000);
afterAll(() => demo.remove());

function treeLines(stdout: string): string[] {
  return stdout.trimEnd().split('\n').slice(1); // the first line is the title
}

/** The indentation a line's children continue at: its connector (├─ / └─) read as the guide below it. */
const guideOf = (line: string): string => indentOf(line).replace(/├─ $/, '│  ').replace(/└─ $/, '   ');

/**
 * Around every annotation (· hook, progress…): the step it sits beside — the closest line above at its depth
 * or shallower (twigs above are deeper) — and the line after it (unless that opens a twig) share its indent.
 */
function expectIndentKeptAroundAnnotations(lines: readonly string[]): void {
  let annotations = 0;
  lines.forEach((line, i) => {
    if (!/^[│├└─┆\d ]*· \[/.test(line) || i === 0 || i === lines.length - 1) return;
    annotations++;
    const guide = guideOf(line);
    let above = i - 1;
    while (above > 0 && guideOf(lines[above]!).length > guide.length) above--;
    expect(guideOf(lines[above]!), `before ${line}`).toBe(guide);
    const after = lines[i + 1]!;
    if (!indentOf(after).startsWith(`${guide}├─`) && !indentOf(after).startsWith(`${guide}└─`)) expect(guideOf(after), `after ${line}`).toBe(guide);
  });
  expect(annotations).toBeGreaterThan(0);
}

describe('arbor tree', () => {
  it('draws the demo’s one rewind as its only branch, its hooks and parallel reads inline', async () => {
    const run = await demo.cli(['tree', demo.graph.session.id]);
    expect(run.code).toBe(0);
    const lines = treeLines(run.stdout);
    expect(lines).toHaveLength(demo.graph.nodes.length);
    expect(demo.graph.session.branchCount).toBe(1);
    // Top-level branches: the two prompts of the rewind; the subagent run is a twig of its call, not a branch.
    expect(lines.filter((line) => /^[├└]─ /.test(line)).map((line) => line.slice(3, 9))).toEqual(['[user]', '[user]']);
    expect(lines.filter((line) => /^ {3}├─ /.test(line))).toHaveLength(1);
    expect(lines.find((line) => line.includes('Hook PostToolUse:Read'))).toMatch(/^· \[progress\]/);
    expectIndentKeptAroundAnnotations(lines);
  });

  it('keeps a compaction root inline after the line it continues (no branch)', async () => {
    const builder = new TranscriptBuilder(
      { sessionId: '7ee00000-0000-4000-8000-000000000013', cwd: '/w', version: '2.1.30', gitBranch: 'main', slug: 's' },
      new Random(7),
      new Date('2026-11-30T10:00:00Z'),
    );
    builder.userPrompt('Start the work');
    const call = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Bash', input: { command: 'ls' } }], 'claude-opus-4', USAGE, 'tool_use');
    builder.hookProgress('PreToolUse', 'PreToolUse:Bash', 'check', call.calls[0]!.toolUseId);
    builder.toolResult(call.calls[0]!, 'a\nb', { stdout: 'a\nb', stderr: '', interrupted: false });
    builder.assistant([{ type: 'text', text: 'Listed.' }], 'claude-opus-4', USAGE, 'end_turn');
    builder.compaction('auto', 150_000, 'Summary of the work so far');
    builder.userPrompt('Now go on');
    builder.assistant([{ type: 'text', text: 'Going on.' }], 'claude-opus-4', USAGE, 'end_turn');
    const folder = join(demo.root, 'compaction');
    mkdirSync(folder);
    const file = join(folder, 'compaction.jsonl');
    writeFileSync(file, `${builder.take().join('\n')}\n`);
    const imported = await demo.cli(['import', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const sessionId = (JSON.parse(imported.stdout) as { sessions: { id: string }[] }).sessions[0]!.id;
    const lines = treeLines((await demo.cli(['tree', sessionId])).stdout);
    expect(lines.some((line) => /[├└]─/.test(line))).toBe(false);
    expect(lines).toContain('[compaction] Compacted (auto, 150k tokens) (after compaction)');
    expect(lines.at(-1)).toBe('[assistant] Going on.');
    expectIndentKeptAroundAnnotations(lines);
  });
});
