/**
 * "Continue from the merge" over the demo session: ours is a fork of the abandoned "colors" turn, theirs a
 * fork of the main line's last step; both forks change the first line of src/index.ts (a conflict, resolved
 * by hand). The transcript `merge.continue` writes passes the resumable-transcript rules for ours' path and
 * ends in exactly one merge-summary block naming theirs' prompts, conclusions, changed files and the
 * resolutions; imported back, the block is a merge-summary node on a branch below the merge node, never a
 * prompt or the session's title.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProjectDir } from '../../../electron/forks/claude-projects';
import { isMergeSummaryText, MERGE_SUMMARY_CLOSE, MERGE_SUMMARY_FIELD, MERGE_SUMMARY_OPEN } from '../../../shared/merge-summary';
import type { NodeSummary } from '../../../shared/model';
import type { ForkCreated, MergeContinued, MergePreview } from '../../../shared/operations';
import { openDemoService, type DemoService } from '../service/demo-service';
import { checkResumableCopy, parseCopy } from '../forks/transcript-rules';

let fixture: DemoService;
let ours: ForkCreated;
let theirs: ForkCreated;
let colorsLeaf: NodeSummary;
let mainLeaf: NodeSummary;
let preview: MergePreview;
let operation: string;
let mergeNode: string;
let continued: MergeContinued;
let text: string;
const progress: { operation: string; phase: string; done: number }[] = [];

const MANUAL = '// merged by hand: both headers\n';

/** The abandoned colors turn ends in this reply; the main line goes on to JSON output. */
function leaves(nodes: readonly NodeSummary[]): { colorsLeaf: NodeSummary; mainLeaf: NodeSummary } {
  const main = nodes.filter((node) => !node.sidechain);
  return { colorsLeaf: main.find((node) => node.kind === 'assistant' && node.label.includes('printed in green'))!, mainLeaf: main.at(-1)! };
}

function sourceLine(uuid: string): string {
  for (const file of readdirSync(join(fixture.root, 'demo', 'transcripts'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.jsonl')) continue;
    const line = readFileSync(join(fixture.root, 'demo', 'transcripts', file), 'utf8').split('\n').find((l) => l.includes(`"uuid":"${uuid}"`));
    if (line !== undefined) return line;
  }
  throw new Error(`no source line ${uuid}`);
}

beforeAll(async () => {
  fixture = await openDemoService('arbor-merge-back-');
  const { service, root } = fixture;
  ({ colorsLeaf, mainLeaf } = leaves(fixture.nodes));
  ours = await service.api['fork.create']({ nodeId: colorsLeaf.id, dir: join(root, 'ours') });
  theirs = await service.api['fork.create']({ nodeId: mainLeaf.id, dir: join(root, 'theirs') });
  // Both change the first line of src/index.ts: a content conflict the user settles by hand.
  for (const [fork, header] of [[ours, '// ours header'], [theirs, '// theirs header']] as const) {
    const path = join(fork.dir, 'src/index.ts');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[0] = header;
    writeFileSync(path, lines.join('\n'));
  }
  preview = await service.api['merge.preview']({ nodeIdA: ours.branch, nodeIdB: theirs.branch });
  const index = readFileSync(join(ours.dir, 'src/index.ts'), 'utf8');
  const outcome = await service.api['merge.apply']({
    token: preview.token,
    resolutions: [{ path: 'src/index.ts', content: index.replace('// ours header\n', MANUAL) }],
  });
  if (outcome.status !== 'applied') throw new Error(`merge not applied: ${outcome.status}`);
  ({ operation, mergeNode } = outcome);
  const stop = service.events.on('operation.progress', (event) => void progress.push(event));
  continued = await service.api['merge.continue']({ operation });
  stop();
  text = readFileSync(continued.transcript, 'utf8');
});
afterAll(async () => fixture?.dispose());

describe('the merge this suite continues from', () => {
  it('has a conflict in src/index.ts and theirs’ own changes', () => {
    const status = Object.fromEntries(preview.files.map((file) => [file.path, [file.status, file.changedBy]]));
    expect(status['src/index.ts']).toEqual(['conflicted', 'both']);
    expect(status['src/json.ts']).toEqual(['added', 'theirs']);
    expect(preview.conflicted).toBe(1);
  });
});

describe('merge.continue', () => {
  it('writes the transcript under the merged folder’s project and answers with the resume command', () => {
    expect(continued.dir).toBe(ours.dir);
    expect(continued.mergeNode).toBe(mergeNode);
    expect(continued.resume).toBe(`claude --resume ${continued.resumeSessionId}`);
    expect(continued.transcript).toBe(join(fixture.root, 'home', '.claude', 'projects', encodeProjectDir(ours.dir), `${continued.resumeSessionId}.jsonl`));
    // It says how far it is, under the merge's operation id.
    expect(progress.filter((event) => event.operation === operation).map((event) => `${event.phase} ${event.done}`)).toEqual(['transcript 0', 'transcript 1', 'import 0', 'import 1']);
  });

  it('holds ours’ path as a fork from ours’ node would, passing the resumable-transcript rules', () => {
    const { lines } = parseCopy(text);
    const copy = text.split('\n').slice(0, lines.length - 1).join('\n') + '\n';
    const rules = checkResumableCopy(copy, {
      sessionId: continued.resumeSessionId,
      target: colorsLeaf.id,
      targetKept: true,
      sourceLine,
      move: { from: fixture.demo.workspaceDir, to: ours.dir },
    });
    expect(rules).toEqual([]);
    // The same lines as the fork of ours' node wrote (the writer is shared): only the session id differs.
    const forkLines = parseCopy(readFileSync(ours.transcript!, 'utf8')).lines;
    expect(lines.slice(0, -1).map((line) => line.uuid)).toEqual(forkLines.map((line) => line.uuid));
    // Nothing of the abandoned branch's sibling (theirs) is in ours' path.
    expect(lines.some((line) => line.uuid === mainLeaf.id)).toBe(false);
  });

  it('ends in exactly one merge-summary block, a user text message chained to the copy', () => {
    const { lines, problems } = parseCopy(text);
    expect(problems).toEqual([]);
    const blocks = lines.filter((line) => JSON.stringify(line.json).includes(MERGE_SUMMARY_OPEN.replace(/"/g, '\\"')));
    expect(blocks).toHaveLength(1);
    const last = lines.at(-1)!;
    expect(blocks[0]).toBe(last);
    expect(last.json).toMatchObject({ type: 'user', sessionId: continued.resumeSessionId, parentUuid: lines.at(-2)!.uuid, cwd: ours.dir, isSidechain: false });
    expect(last.json.isMeta).toBeUndefined();
    expect(last.json[MERGE_SUMMARY_FIELD]).toMatchObject({ version: 1, operation, mergeNode });
    const content = (last.json.message as { role: string; content: { type: string; text: string }[] }).content;
    expect((last.json.message as { role: string }).role).toBe('user');
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe('text');
    expect(isMergeSummaryText(content[0]!.text)).toBe(true);
    expect(content[0]!.text.trimEnd().endsWith(MERGE_SUMMARY_CLOSE)).toBe(true);
  });

  it('summarises theirs: its prompts, conclusions, changed files and the merge’s resolutions', async () => {
    const summary = (parseCopy(text).lines.at(-1)!.json.message as { content: { text: string }[] }).content[0]!.text;
    // Theirs' prompts since the branch point, read from the store, each once.
    const theirsPath = (await fixture.service.api['sessions.graph']({ sessionId: fixture.demo.sessionId })).nodes;
    const byId = new Map(theirsPath.map((node) => [node.id, node]));
    const chain: NodeSummary[] = [];
    for (let at: NodeSummary | undefined = byId.get(mainLeaf.id); at !== undefined && at.id !== preview.base; at = at.parentId === null ? undefined : byId.get(at.parentId)) chain.unshift(at);
    const prompts = chain.filter((node) => node.kind === 'user' && !node.sidechain);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      const detail = await fixture.service.api['nodes.get']({ nodeId: prompt.id });
      const promptText = detail.blocks.find((block) => block.type === 'text');
      expect(promptText?.type === 'text' ? summary.includes(promptText.text.trim()) : false).toBe(true);
    }
    // The ours branch's own prompt is not theirs.
    expect(summary).not.toContain('Make the output colorful');
    // Each turn's conclusion: the final reply of theirs' last turn.
    const lastReply = chain.filter((node) => node.kind === 'assistant').at(-1)!;
    const reply = (await fixture.service.api['nodes.get']({ nodeId: lastReply.id })).blocks.find((block) => block.type === 'text');
    expect(reply?.type === 'text' ? summary.includes(`Assistant's conclusion: ${reply.text.trim().split('\n')[0]}`) : false).toBe(true);
    // Files theirs changed, and how each file was settled.
    const changed = summary.slice(summary.indexOf("## Files theirs changed"), summary.indexOf('## How the merge settled'));
    expect(changed).toContain('- src/json.ts (added)');
    expect(changed).toContain('- src/index.ts (changed, ours changed it too)');
    expect(changed).not.toContain('src/format.ts');
    const settled = summary.slice(summary.indexOf('## How the merge settled'));
    expect(settled).toContain('- src/index.ts: conflict (content), resolved by hand');
    expect(settled).toContain('- src/json.ts: merged cleanly (theirs changed it)');
    expect(settled).toContain('- src/format.ts: merged cleanly (ours changed it)');
    expect(settled.match(/^- /gm)).toHaveLength(preview.files.length);
  });

  it('reads the block back as a merge-summary node below the merge, not a prompt or the title', async () => {
    const graph = await fixture.service.api['sessions.graph']({ sessionId: fixture.demo.sessionId });
    const summaryId = parseCopy(text).lines.at(-1)!.uuid!;
    expect(continued.summaryNode).toBe(summaryId);
    const node = graph.nodes.find((candidate) => candidate.id === summaryId)!;
    expect(node.kind).toBe('merge-summary');
    expect(node.label).toMatch(/^Merge summary: \d+ turns? of theirs, \d+ files?$/);
    // Drawn on the continuation's branch, which hangs below the merge node (ours and theirs its parents).
    expect(node.parentId).toBe(continued.branch);
    const branch = graph.nodes.find((candidate) => candidate.id === continued.branch)!;
    expect(branch.parentId).toBe(mergeNode);
    expect(graph.workspaceNodes).toContainEqual({ nodeId: continued.branch, kind: 'fork', dir: ours.dir });
    const merge = graph.nodes.find((candidate) => candidate.id === mergeNode)!;
    expect([merge.parentId, ...merge.extraEdges.map((edge) => edge.nodeId)]).toEqual(expect.arrayContaining([ours.branch, theirs.branch]));
    // Not a prompt: the session's title and prompts are unchanged.
    const listed = (await fixture.service.api['sessions.list']({})).sessions.find((session) => session.id === fixture.demo.sessionId)!;
    expect(listed.title).not.toContain('arbor-merge-summary');
    expect(listed.title).not.toMatch(/^Merge summary/);
    // Searchable as what it is.
    await fixture.service.idle();
    const search = await fixture.service.api['search.query']({ query: '"How the merge settled each file"' });
    expect(search.hits.map((hit) => [hit.nodeId, hit.kind])).toEqual([[summaryId, 'merge-summary']]);
  });

  it('lists the continuation with the forks and refuses an unknown or undone merge', async () => {
    const { forks } = await fixture.service.api['forks.list']({});
    expect(forks.find((fork) => fork.fork === continued.fork)).toMatchObject({ branch: continued.branch, dir: ours.dir, resume: continued.resume, transcript: continued.transcript });
    await expect(fixture.service.api['merge.continue']({ operation: 'no-such-operation' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await fixture.service.api['operations.undo']({ operationId: operation });
    await expect(fixture.service.api['merge.continue']({ operation })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
