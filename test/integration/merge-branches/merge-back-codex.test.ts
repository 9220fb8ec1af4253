/**
 * "Continue from the merge" for a Codex session: two forks of one rollout (after its first and its second
 * turn) change src/dates.ts differently, the conflict is resolved by hand, and `merge.continue` writes a
 * rollout for the merged folder that passes Codex's rollout rules: ours' turn (the fork writer's copy) and
 * one developer message holding the merge-summary block. Imported, the block is a merge-summary node.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { checkRollout } from '../../../electron/forks/codex/rollout-rules';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { isMergeSummaryText, MERGE_SUMMARY_OPEN } from '../../../shared/merge-summary';
import type { ForkCreated, MergeContinued } from '../../../shared/operations';

const SOURCE = '019e0000-0000-7000-8000-00000000d000';
const NOW = new Date('2026-12-01T10:00:00.000Z');

let root: string;
let codexHome: string;
let service: ArborService;
let ours: ForkCreated;
let theirs: ForkCreated;
let continued: MergeContinued;
let lines: string[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-merge-back-codex-'));
  const app = join(root, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'src', 'dates.ts'), 'return d.getUTCDay();\n');
  codexHome = join(root, 'codex-home');
  const day = join(codexHome, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  await new RolloutBuilder({ id: SOURCE, cwd: app })
    .user('Fix the failing date test')
    .agent('The date test passes now.')
    .complete()
    .user('Also rename the helper to weekday')
    .agent('Renamed the helper to weekday.')
    .complete()
    .write(join(day, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`));
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: { CODEX_HOME: codexHome }, now: () => NOW });
  await service.api['import.run']({ paths: [join(codexHome, 'sessions')] });
  const { nodes } = await service.api['sessions.graph']({ sessionId: SOURCE });
  const reply = (text: string) => nodes.find((node) => node.kind === 'assistant' && node.label.includes(text))!;
  ours = await service.api['fork.create']({ nodeId: reply('The date test passes now').id, dir: join(root, 'ours') });
  theirs = await service.api['fork.create']({ nodeId: reply('Renamed the helper').id, dir: join(root, 'theirs') });
  writeFileSync(join(ours.dir, 'src', 'dates.ts'), 'return d.getUTCDay(); // ours\n');
  writeFileSync(join(theirs.dir, 'src', 'dates.ts'), 'return weekday(d); // theirs\n');
  const preview = await service.api['merge.preview']({ nodeIdA: ours.branch, nodeIdB: theirs.branch });
  expect(preview.conflicted).toBe(1);
  const outcome = await service.api['merge.apply']({ token: preview.token, resolutions: [{ path: 'src/dates.ts', content: 'return weekday(d); // both\n' }] });
  if (outcome.status !== 'applied') throw new Error(`merge not applied: ${outcome.status}`);
  continued = await service.api['merge.continue']({ operation: outcome.operation });
  lines = readFileSync(continued.transcript, 'utf8').trimEnd().split('\n');
});

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('continuing from a merge of Codex forks', () => {
  it('writes a rollout `codex resume` accepts, for the merged folder', () => {
    expect(continued.resume).toBe(`codex resume ${continued.resumeSessionId}`);
    expect(continued.dir).toBe(ours.dir);
    const text = readFileSync(continued.transcript, 'utf8');
    const verdict = checkRollout(text, { fileName: basename(continued.transcript) });
    expect(verdict.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(verdict).toMatchObject({ resumable: true, threadId: continued.resumeSessionId, forkedFromId: SOURCE });
    expect((JSON.parse(lines[0]!) as { payload: { cwd: string } }).payload.cwd).toBe(ours.dir);
  });

  it('holds ours’ turn only, then exactly one developer message with the summary of theirs', () => {
    expect(lines.filter((line) => line.includes('Fix the failing date test')).length).toBeGreaterThan(0);
    const summaries = lines.filter((line) => line.includes(MERGE_SUMMARY_OPEN.replace(/"/g, '\\"')));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toBe(lines.at(-1));
    const last = JSON.parse(lines.at(-1)!) as { type: string; payload: { type: string; role: string; content: { type: string; text: string }[] } };
    expect(last).toMatchObject({ type: 'response_item', payload: { type: 'message', role: 'developer' } });
    const summary = last.payload.content[0]!.text;
    expect(isMergeSummaryText(summary)).toBe(true);
    expect(summary).toContain('1. User: Also rename the helper to weekday');
    expect(summary).toContain("Assistant's conclusion: Renamed the helper to weekday.");
    expect(summary).toContain('- src/dates.ts: conflict (content), resolved by hand');
    // Theirs' turn is summarised, never copied as ours' history.
    expect(lines.slice(0, -1).some((line) => line.includes('Also rename the helper'))).toBe(false);
  });

  it('imports the block back as a merge-summary node of the continued session, not a prompt', async () => {
    expect(continued.summaryNode).not.toBeNull();
    const detail = await service.api['nodes.get']({ nodeId: continued.summaryNode! });
    expect(detail.node.kind).toBe('merge-summary');
    const session = (await service.api['sessions.list']({})).sessions.find((candidate) => candidate.id === continued.resumeSessionId);
    expect(session?.source).toBe('codex');
    expect(session?.title).not.toContain('arbor-merge-summary');
    expect(session?.title).not.toMatch(/^Merge summary|This message is not a request/);
    expect(session?.project).toBe(ours.dir);
  });
});
