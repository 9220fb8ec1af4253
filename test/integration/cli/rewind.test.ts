/**
 * `arbor rewind`, `arbor undo` and `arbor operations` end to end, in-process through runCli, over the demo
 * session imported into a temp data folder: --dry-run writes nothing, a rewind's --json has the documented
 * shape and matches its dry run, undo restores the workspace, and failures exit 1 with one clear line.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGraph } from '../../../shared/model';
import type { OperationSummary, SideEffect, SkippedPath, UnverifiedPath } from '../../../shared/operations';
import { describeFiles, readAllFiles } from '../rewind/workspace-files';
import { openCliDemo, type CliDemo, type Run } from './run-cli';

interface RewindJson {
  operation: string | null;
  written: string[];
  created: string[];
  deleted: string[];
  sideEffects: SideEffect[];
  skipped: SkippedPath[];
  unverified: UnverifiedPath[];
  token: string;
}

let workspace: string;
let graph: SessionGraph;

let demo: CliDemo;

function cli(args: string[]): Promise<Run> {
  return demo.cli(args);
}

beforeAll(async () => {
  demo = await openCliDemo('arbor-cli-rewind-');
  ({ graph } = demo);
  workspace = graph.session.project!;
});
afterAll(() => demo.remove());

const firstNode = (): string => graph.nodes[0]!.id;

describe('arbor rewind', () => {
  it('--dry-run --json prints the plan with a null operation and writes nothing', async () => {
    const before = describeFiles(readAllFiles(workspace));
    const run = await cli(['rewind', firstNode(), '--dry-run', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse(run.stdout) as RewindJson;
    expect(Object.keys(json)).toEqual(['operation', 'written', 'created', 'deleted', 'sideEffects', 'skipped', 'unverified', 'token']);
    // The first node is before the demo's first writing command: every file it writes is known.
    expect(json.unverified).toEqual([]);
    expect(json.token).toMatch(/^[0-9a-f]{32}$/);
    expect(json.operation).toBeNull();
    expect(json.written.length + json.created.length + json.deleted.length).toBeGreaterThan(0);
    expect(json.sideEffects.some((effect) => effect.kind === 'publish')).toBe(true);
    expect(describeFiles(readAllFiles(workspace))).toEqual(before);
  });

  it('prints a readable preview with side effects', async () => {
    const run = await cli(['rewind', firstNode(), '--workspace', workspace, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Workspace: /m);
    expect(run.stdout).toMatch(/^Written \(\d+\):$/m);
    expect(run.stdout).toMatch(/^Side effects since this node, which a rewind cannot undo \(\d+\):$/m);
    expect(run.stdout).toMatch(/^ {2}publish +Bash: npm publish/m);
    expect(run.stdout).toMatch(/Dry run: nothing was written\.\n$/);
  });

  it('rewinds with --json as the dry run said, lists the operation, and undo restores every byte', async () => {
    const before = describeFiles(readAllFiles(workspace));
    const dry = JSON.parse((await cli(['rewind', firstNode(), '--dry-run', '--json'])).stdout) as RewindJson;
    const run = await cli(['rewind', firstNode(), '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse(run.stdout) as RewindJson;
    expect(json.operation).toMatch(/^op-/);
    expect({ ...json, operation: null }).toEqual(dry);
    expect(describeFiles(readAllFiles(workspace))).not.toEqual(before);

    const listed = await cli(['operations', '--workspace', workspace, '--json']);
    const { operations } = JSON.parse(listed.stdout) as { operations: OperationSummary[] };
    expect(operations[0]).toMatchObject({ operation: json.operation, kind: 'rewind', status: 'applied', nodeId: firstNode() });
    const table = await cli(['operations']);
    expect(table.stdout).toContain(json.operation!);

    const undo = await cli(['undo', json.operation!, '--json']);
    expect(undo).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(undo.stdout)).toMatchObject({ status: 'applied', kind: 'undo' });
    expect(describeFiles(readAllFiles(workspace))).toEqual(before);
    const after = JSON.parse((await cli(['operations', '--json'])).stdout) as { operations: OperationSummary[] };
    expect(after.operations.find((op) => op.operation === json.operation)?.status).toBe('undone');
  });

  it('refuses an undo after the files changed, with one line and exit 1', async () => {
    const run = await cli(['rewind', firstNode(), '--json']);
    const json = JSON.parse(run.stdout) as RewindJson;
    const path = json.written[0]!;
    writeFileSync(join(workspace, path), 'changed by hand after the rewind\n');
    const undo = await cli(['undo', json.operation!]);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toMatch(new RegExp(`^arbor: the workspace changed since the preview \\(1 file: ${path.replace(/\./g, '\\.')}\\); nothing was written\\n$`));
  });

  it('fails with NOT_FOUND for an unknown node or operation, and with usage for a missing argument', async () => {
    expect(await cli(['rewind', 'no-such-node'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/\[NOT_FOUND\]\n$/) });
    expect(await cli(['undo', 'op-none'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/\[NOT_FOUND\]\n$/) });
    expect((await cli(['rewind'])).code).toBe(2);
    expect((await cli(['undo'])).code).toBe(2);
    expect((await cli(['operations', 'extra'])).code).toBe(2);
  });
});

/** Regression: `arbor rewind --dry-run` printed no token, so nothing tied what the user read to what the rewind then wrote. */
describe('arbor rewind --expect TOKEN applies only the plan its dry run showed', () => {
  /** A node whose rewind would change something now, with its dry run. */
  async function nodeWithChanges(): Promise<{ node: string; dry: RewindJson }> {
    for (const node of [...graph.nodes].reverse()) {
      const dry = JSON.parse((await cli(['rewind', node.id, '--dry-run', '--json'])).stdout) as RewindJson;
      if (dry.written.length + dry.created.length + dry.deleted.length > 0) return { node: node.id, dry };
    }
    throw new Error('no node would change the workspace');
  }

  it('prints the token in the text preview and says how to apply exactly it', async () => {
    const { node, dry } = await nodeWithChanges();
    const run = await cli(['rewind', node, '--dry-run']);
    expect(run.stdout).toContain(`Preview token: ${dry.token} (apply exactly this plan: arbor rewind ${node} --expect ${dry.token})\n`);
  });

  it('dry run, then --expect with its token: rewinds exactly what the dry run listed', async () => {
    const { node, dry } = await nodeWithChanges();
    const run = await cli(['rewind', node, '--expect', dry.token, '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const json = JSON.parse(run.stdout) as RewindJson;
    expect(json.operation).toMatch(/^op-/);
    expect({ ...json, operation: null }).toEqual(dry);
    await cli(['undo', json.operation!]);
  });

  it('dry run, a planned file edited, then --expect: exit 1, workspace-changed, nothing written', async () => {
    const { node, dry } = await nodeWithChanges();
    const path = [...dry.written, ...dry.deleted][0]!;
    writeFileSync(join(workspace, path), `${readFileSync(join(workspace, path), 'utf8')}edited after the dry run\n`);
    const before = describeFiles(readAllFiles(workspace));
    const run = await cli(['rewind', node, '--expect', dry.token, '--json']);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { status: string; changed: string[] };
    expect(json.status).toBe('workspace-changed');
    expect(json.changed).toContain(path);
    expect(run.stderr).toMatch(/^arbor: the workspace changed since the preview \(\d+ files?: .*\); nothing was written\n$/);
    expect(describeFiles(readAllFiles(workspace))).toEqual(before);
    const listed = JSON.parse((await cli(['operations', '--json'])).stdout) as { operations: OperationSummary[] };
    expect((await cli(['rewind', node, '--expect', dry.token])).code).toBe(1);
    expect((JSON.parse((await cli(['operations', '--json'])).stdout) as { operations: OperationSummary[] }).operations).toEqual(listed.operations);
  });

  it("refuses another node's token, and a token made for another workspace", async () => {
    const { node, dry } = await nodeWithChanges();
    const other = graph.nodes.find((n) => n.id !== node && n.kind === 'user')!.id;
    const before = describeFiles(readAllFiles(workspace));
    expect(await cli(['rewind', other, '--expect', dry.token])).toMatchObject({ code: 1, stderr: expect.stringMatching(/workspace changed since the preview/) });
    const copy = mkdtempSync(join(tmpdir(), 'arbor-cli-rewind-copy-'));
    try {
      cpSync(workspace, copy, { recursive: true });
      const elsewhere = JSON.parse((await cli(['rewind', node, '--workspace', copy, '--dry-run', '--json'])).stdout) as RewindJson;
      expect({ ...elsewhere, token: dry.token }).toEqual(dry);
      expect(elsewhere.token).not.toBe(dry.token);
      expect((await cli(['rewind', node, '--expect', elsewhere.token])).code).toBe(1);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    expect(describeFiles(readAllFiles(workspace))).toEqual(before);
  });

  it('--expect is documented, needs a token, and does not go with --dry-run', async () => {
    const help = await cli(['rewind', '--help']);
    expect(help.stdout).toMatch(/--expect TOKEN +Rewind only if the plan is still the one the dry run with this token showed/);
    expect((await cli(['rewind', firstNode(), '--expect', 'not-a-token'])).code).toBe(2);
    expect((await cli(['rewind', firstNode(), '--dry-run', '--expect', '0'.repeat(32)])).code).toBe(2);
  });
});
