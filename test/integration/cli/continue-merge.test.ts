/**
 * `arbor merge … --continue` and `arbor continue-merge OPERATION` over the demo session: the abandoned colors
 * turn merged with the main line, then continued: the command to resume, the transcript with its one
 * merge-summary block, and the errors a user meets (unknown operation, bad usage).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMergeSummaryText } from '../../../shared/merge-summary';
import type { MergeContinued } from '../../../shared/operations';
import { openCliDemo, type CliDemo } from './run-cli';

let demo: CliDemo;
let colors: string;
let main: string;

beforeAll(async () => {
  demo = await openCliDemo('arbor-cli-continue-merge-');
  const line = demo.graph.nodes.filter((node) => !node.sidechain);
  colors = line.find((node) => node.kind === 'assistant' && node.label.includes('printed in green'))!.id;
  main = line.at(-1)!.id;
});
afterAll(() => demo?.remove());

const summaryOf = (transcript: string): string[] =>
  readFileSync(transcript, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { message?: { content?: unknown } })
    .flatMap((line) => (Array.isArray(line.message?.content) ? (line.message.content as { type: string; text?: string }[]) : []))
    .flatMap((block) => (block.type === 'text' && block.text !== undefined && isMergeSummaryText(block.text) ? [block.text] : []));

describe('arbor continue-merge', () => {
  it('merge --continue prints the merge, then the command that resumes the agent in the merged folder', async () => {
    const run = await demo.cli(['merge', colors, main, '--continue']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Merged into /);
    const resume = /^Resume: {5}cd "(.+)" && claude --resume ([0-9a-f-]{36})$/m.exec(run.stdout);
    expect(resume).not.toBeNull();
    const transcript = /^Transcript: (.+)$/m.exec(run.stdout)![1]!;
    expect(transcript.endsWith(`${resume![2]}.jsonl`)).toBe(true);
    expect(summaryOf(transcript)).toHaveLength(1);
  });

  it('continues a merge by its operation id, as JSON, once more on a new branch', async () => {
    const merged = JSON.parse((await demo.cli(['merge', colors, main, '--json'])).stdout) as { status: string; operation: string; mergeNode: string };
    expect(merged.status).toBe('applied');
    const run = await demo.cli(['continue-merge', merged.operation, '--json']);
    expect(run.code).toBe(0);
    const continued = JSON.parse(run.stdout) as MergeContinued;
    expect(continued).toMatchObject({ operation: merged.operation, mergeNode: merged.mergeNode, resume: `claude --resume ${continued.resumeSessionId}` });
    const [summary] = summaryOf(continued.transcript);
    expect(summary).toContain('Add a --json flag');
    expect(summary).not.toContain('Make the output colorful');
    const tree = await demo.cli(['show', demo.graph.session.id, '--json']);
    const nodes = (JSON.parse(tree.stdout) as { nodes: { id: string; kind: string }[] }).nodes;
    expect(nodes.find((node) => node.id === continued.summaryNode)?.kind).toBe('merge-summary');
  });

  it('says what is wrong: an unknown operation exits 1, bad usage 2, and --help explains it', async () => {
    const unknown = await demo.cli(['continue-merge', 'no-such-operation']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No merge no-such-operation');
    expect((await demo.cli(['continue-merge'])).code).toBe(2);
    expect((await demo.cli(['merge', colors, main, '--dry-run', '--continue'])).code).toBe(2);
    const help = await demo.cli(['continue-merge', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: arbor continue-merge OPERATION [--json]');
    expect((await demo.cli(['--help'])).stdout).toMatch(/^ {2}continue-merge\s/m);
  });
});
