/**
 * `arbor files`, `arbor diff` and `arbor snapshot` end to end, in-process through runCli, over the demo
 * session imported into a temp data folder. Exit codes: 0 ok, 1 failure (`arbor: reason [CODE]`), 2 usage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeDiff, NodeFiles, SessionGraph, SnapshotCaptured } from '../../../shared/model';
import { openCliDemo, type CliDemo, type Run } from './run-cli';

let workspace: string;
let graph: SessionGraph;

let demo: CliDemo;

function cli(args: string[]): Promise<Run> {
  return demo.cli(args);
}

beforeAll(async () => {
  demo = await openCliDemo('arbor-cli-files-');
  ({ graph } = demo);
  workspace = graph.session.project!;
  expect(workspace).toBeTruthy();
});
afterAll(() => demo.remove());

const mainLast = (): string => graph.nodes.filter((node) => !node.sidechain).at(-1)!.id;

describe('arbor files', () => {
  it('prints the main branch’s last state as JSON, matching the workspace on disk', async () => {
    const run = await cli(['files', mainLast(), '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const files = JSON.parse(run.stdout) as NodeFiles;
    expect(files.node.id).toBe(mainLast());
    expect(files.known).toBe('unknown');
    expect(files.files.map((file) => file.path)).toContain(join(workspace, 'src/format.ts'));
  });

  it('prints a readable listing without --json', async () => {
    const run = await cli(['files', graph.nodes[0]!.id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^State: +reconstructed/m);
    expect(run.stdout).toMatch(/^Changed: 0 files$/m);
  });

  it('fails with NOT_FOUND for an unknown node and with usage for a missing argument', async () => {
    const missing = await cli(['files', 'no-such-node']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[NOT_FOUND\]\n$/);
    expect((await cli(['files'])).code).toBe(2);
    expect((await cli(['diff', mainLast()])).code).toBe(2);
  });
});

describe('arbor diff', () => {
  it('lists the file the rewound branch changed differently', async () => {
    const format = join(workspace, 'src/format.ts');
    // The rewound branch's head: a leaf that is not the main branch's last node.
    const parents = new Set(graph.nodes.map((node) => node.parentId));
    const leaves = graph.nodes.filter((node) => !node.sidechain && !parents.has(node.id) && node.id !== mainLast());
    let found: NodeDiff | undefined;
    for (const leaf of leaves) {
      const run = await cli(['diff', leaf.id, mainLast(), '--json']);
      expect(run.code).toBe(0);
      const diff = JSON.parse(run.stdout) as NodeDiff;
      if (diff.files.some((file) => file.path === format && file.before?.includes('\\x1b[32m') === true)) found = diff;
    }
    expect(found).toBeDefined();
    const entry = found!.files.find((file) => file.path === format)!;
    expect(entry.status).toBe('modified');
    expect(entry.after).toBe(readFileSync(format, 'utf8'));
    const text = await cli(['diff', found!.nodeIdA, found!.nodeIdB]);
    expect(text.stdout).toMatch(/^M .*src\/format\.ts \(\+\d+ -\d+\)$/m);
  });

  it('fails with NOT_FOUND when either node is unknown', async () => {
    const run = await cli(['diff', mainLast(), 'nope']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[NOT_FOUND\]/);
  });
});

describe('arbor snapshot', () => {
  it('prints {node, snapshot, files}; a second snapshot of the unchanged folder reuses its objects', async () => {
    const first = await cli(['snapshot', workspace, '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const one = JSON.parse(first.stdout) as SnapshotCaptured;
    expect(Object.keys(one).sort()).toEqual(['files', 'node', 'snapshot']);
    expect(one.node.sessionId).toBe(graph.session.id);
    expect(one.files).toBeGreaterThanOrEqual(5);

    const second = await cli(['snapshot', workspace, '--json']);
    const two = JSON.parse(second.stdout) as SnapshotCaptured;
    expect(two.snapshot.tree).toBe(one.snapshot.tree);
    expect(two.snapshot.objectsWritten).toBeLessThanOrEqual(1);
    expect(two.snapshot.filesRead).toBe(0);

    const files = JSON.parse((await cli(['files', two.node.id, '--json'])).stdout) as NodeFiles;
    expect(files.known).toBe('exact');
    expect(files.files).toHaveLength(one.files);
    const diff = await cli(['diff', one.node.id, two.node.id]);
    expect(diff.stdout).toBe('0 files differ\n');
  });

  it('resolves a relative folder against the working directory and fails for a missing one', async () => {
    const relative = await cli(['snapshot', 'demo/workspace']);
    expect(relative.code).toBe(0);
    expect(relative.stdout).toContain(`Snapshot of ${workspace}:`);
    const missing = await cli(['snapshot', 'no-such-folder']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[NOT_FOUND\]/);
  });
});
