/**
 * `arbor fork` and `arbor forks` end to end, in-process through runCli, over the demo session imported into a
 * temp data folder. Exit codes: 0 ok, 1 failure (`arbor: reason [CODE]`), 2 usage.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGraph } from '../../../shared/model';
import type { ForkCreated, ForkSummary } from '../../../shared/operations';
import { openCliDemo, type CliDemo, type Run } from './run-cli';

let root: string;
let graph: SessionGraph;

let demo: CliDemo;

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return demo.cli(args, env);
}

beforeAll(async () => {
  demo = await openCliDemo('arbor-cli-fork-');
  ({ root, graph } = demo);
});
afterAll(() => demo.remove());

const firstToolCall = (): string => graph.nodes.find((node) => !node.sidechain && node.kind === 'tool_call')!.id;

describe('arbor fork', () => {
  it('prints {"branch","dir","resume"} and writes the folder and the transcript (CLAUDE_CONFIG_DIR honoured)', async () => {
    const config = join(root, 'claude-config');
    const run = await cli(['fork', firstToolCall(), '--to', 'forked', '--json'], { CLAUDE_CONFIG_DIR: config });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(run.stdout) as ForkCreated;
    expect(created.dir).toBe(join(root, 'forked'));
    expect(created.branch).toMatch(/^snapshot-/);
    expect(created.resume).toMatch(/^claude --resume [0-9a-f-]{36}$/);
    expect(existsSync(join(created.dir, 'package.json'))).toBe(true);
    expect(created.transcript!.startsWith(join(config, 'projects'))).toBe(true);
    // The call's result is in the copy: its last line answers the fork point's tool_use.
    const last = JSON.parse(readFileSync(created.transcript!, 'utf8').trimEnd().split('\n').at(-1)!) as { type: string; message: { content: { type: string }[] } };
    expect(last.type).toBe('user');
    expect(last.message.content[0]!.type).toBe('tool_result');
  });

  it('prints how to continue without --json', async () => {
    const run = await cli(['fork', firstToolCall(), '--to', join(root, 'plain')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Forked into .*plain \(\d+ files\)$/m);
    expect(run.stdout).toMatch(/^Resume: {2}cd ".*plain" && claude --resume [0-9a-f-]{36}$/m);
  });

  it('refuses a non-empty target (exit 1, BAD_REQUEST), an unknown node (NOT_FOUND) and bad usage (exit 2)', async () => {
    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'x'), 'x');
    const refused = await cli(['fork', firstToolCall(), '--to', busy]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\[BAD_REQUEST\]\n$/);
    expect((await cli(['fork', 'no-such-node', '--to', join(root, 'none')])).stderr).toMatch(/\[NOT_FOUND\]\n$/);
    expect((await cli(['fork'])).code).toBe(2);
    expect((await cli(['fork', 'a', 'b'])).code).toBe(2);
  });
});

describe('arbor forks', () => {
  it('lists the forks with their size, and removes them', async () => {
    const made = JSON.parse((await cli(['fork', firstToolCall(), '--to', join(root, 'to-remove'), '--json'])).stdout) as ForkCreated;
    const listed = JSON.parse((await cli(['forks', '--json'])).stdout) as { forks: ForkSummary[] };
    const entry = listed.forks.find((fork) => fork.fork === made.fork)!;
    expect(entry.bytes).toBeGreaterThan(0);
    expect(entry.dir).toBe(made.dir);
    const table = await cli(['forks']);
    expect(table.stdout).toMatch(/^FORK +CREATED +SIZE +FOLDER +RESUME$/m);
    expect(table.stdout).toContain(made.fork);

    const removed = await cli(['forks', 'remove', made.fork, '--json']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: [made.fork], problems: [] });
    expect(existsSync(made.dir)).toBe(false);
    expect(existsSync(made.transcript!)).toBe(false);
    const again = await cli(['forks', 'remove', made.fork]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(made.fork);
    expect((await cli(['forks', 'remove'])).code).toBe(2);
    expect((await cli(['forks', 'prune'])).code).toBe(2);
  });
});
