/**
 * Merges over a transcript's reconstructed states (the demo session): two branches of the conversation (the
 * abandoned "colors" turn against the main line), and two forks of one transcript step, whose base knows
 * only the files the session touched and takes the rest from the forks' starting tree.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCreated } from '../../../electron/demo';
import type { ArborService } from '../../../electron/service/service-types';
import { openDemoService, type DemoService } from '../service/demo-service';
import type { NodeSummary } from '../../../shared/model';

let root: string;
let service: ArborService;
let demo: DemoCreated;
let nodes: readonly NodeSummary[];

let fixture: DemoService | undefined;

beforeAll(async () => {
  fixture = await openDemoService('arbor-merge-transcript-');
  ({ root, service, demo, nodes } = fixture);
});
afterAll(async () => {
  await fixture?.dispose();
});

const mainLine = (): NodeSummary[] => nodes.filter((node) => !node.sidechain);
/** The node with two transcript children: where the user rewound and asked for JSON instead of colors. */
function branchPoint(): { point: NodeSummary; colorsLeaf: NodeSummary } {
  const children = new Map<string, NodeSummary[]>();
  for (const node of mainLine()) if (node.parentId !== null) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  const [pointId] = [...children].find(([, list]) => list.length === 2 && list.every((child) => child.kind === 'user'))!;
  // The abandoned turn ends with the assistant's reply.
  const colorsLeaf = mainLine().find((node) => node.kind === 'assistant' && node.label.includes('printed in green'))!;
  return { point: nodes.find((node) => node.id === pointId)!, colorsLeaf };
}

describe('merging two branches of a conversation', () => {
  it('bases the merge on the branch point and shows why each side changed its files', async () => {
    const { point, colorsLeaf } = branchPoint();
    const main = mainLine().at(-1)!;
    const preview = await service.api['merge.preview']({ nodeIdA: colorsLeaf.id, nodeIdB: main.id });
    expect(preview.base).toBe(point.id);
    expect(preview.into).toBe(demo.workspaceDir);
    expect(preview.ours.dir).toBeNull();
    const status = Object.fromEntries(preview.files.map((file) => [file.path, [file.status, file.changedBy]]));
    expect(status['src/format.ts']).toEqual(['clean', 'ours']);
    expect(status['src/json.ts']).toEqual(['added', 'theirs']);
    expect(status['package.json']).toEqual(['clean', 'theirs']);
    expect(preview.conflicted).toBe(0);

    const prompts = preview.ours.messages.filter((message) => message.kind === 'user');
    expect(prompts.map((message) => message.text)).toEqual(['Make the output colorful: print the counts in green.']);
    expect(preview.ours.messages.at(-1)).toMatchObject({ nodeId: colorsLeaf.id, kind: 'assistant', text: 'Counts are now printed in green.' });
    const edit = preview.ours.messages.find((message) => message.files.includes('src/format.ts'));
    expect(edit?.kind).toBe('tool_call');
    expect(edit?.text).toContain('Edit src/format.ts');
    expect(preview.theirs.messages.some((message) => message.files.includes('src/json.ts'))).toBe(true);
    // Sides are listed oldest first and stop at the branch point.
    expect(preview.theirs.messages.map((message) => message.nodeId)).not.toContain(point.id);

    const format = await service.api['merge.file']({ token: preview.token, path: 'src/format.ts' });
    expect(format.ours).toContain('\\x1b[32m');
    expect(format.merged).toBe(format.ours);
  });
});

describe('merging two forks of a transcript step', () => {
  it('takes the base of files the session never touched from the forks’ starting tree', async () => {
    const { point } = branchPoint();
    const a = await service.api['fork.create']({ nodeId: point.id, dir: join(root, 'fork-a') });
    const b = await service.api['fork.create']({ nodeId: point.id, dir: join(root, 'fork-b') });
    appendFileSync(join(a.dir, 'src/index.ts'), '// ours was here\n');
    const index = readFileSync(join(b.dir, 'src/index.ts'), 'utf8');
    writeFileSync(join(b.dir, 'src/index.ts'), `// theirs was here\n${index}`);
    // tsconfig.json: no step of the session touched it, so the reconstructed base does not know it.
    const tsconfig = readFileSync(join(b.dir, 'tsconfig.json'), 'utf8');
    writeFileSync(join(b.dir, 'tsconfig.json'), tsconfig.replace('{', '{\n  "//": "theirs",'));

    const preview = await service.api['merge.preview']({ nodeIdA: a.branch, nodeIdB: b.branch });
    expect(preview.base).toBe(point.id);
    expect(preview.into).toBe(a.dir);
    expect(preview.files.map((file) => [file.path, file.status, file.changedBy])).toEqual([
      ['src/index.ts', 'clean', 'both'],
      ['tsconfig.json', 'clean', 'theirs'],
    ]);
    const outcome = await service.api['merge.apply']({ token: preview.token, resolutions: [] });
    expect(outcome.status).toBe('applied');
    const merged = readFileSync(join(a.dir, 'src/index.ts'), 'utf8');
    expect(merged.startsWith('// theirs was here\n')).toBe(true);
    expect(merged.endsWith('// ours was here\n')).toBe(true);
    expect(readFileSync(join(a.dir, 'tsconfig.json'), 'utf8')).toContain('"//": "theirs"');
  });
});
