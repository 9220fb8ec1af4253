/**
 * `arbor doctor` on Codex rollouts: each file checked by its own format's doctor (claimed by content, as the
 * import does), so a rollout's unmodelled line, response item, event and item types and its unreadable lines
 * are listed — a Codex rollout used to get nothing, or Claude Code's verdict. The session header's report
 * (`sessions.formatReport`) says the same from the stored lines.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import type { FormatReport } from '../../../shared/format-report';
import { openHarness } from '../service/service-harness';
import { runCliCaptured } from './run-cli';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/codex');
const ID = '019e0000-0000-7000-8000-0000000000d1';

let root: string;
let folder: string;
let rollout: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-doctor-codex-'));
  folder = join(root, 'sessions', '2026', '11', '30');
  mkdirSync(folder, { recursive: true });
  // Named like a Claude subagent: the doctor, like the import, goes by content.
  rollout = join(folder, 'agent-a1b2c3.jsonl');
  await new RolloutBuilder({ id: ID, cwd: '/work/app' }).user('go').command('ls', { exitCode: 0, output: 'a' }).future().agent('done').write(rollout);
  appendFileSync(rollout, `${JSON.stringify({ timestamp: '2026-11-30T09:00:09.000Z', type: 'event_msg', payload: { type: 'item_completed', item: { type: 'ImageGeneration', id: 'g1' } } })}\n`);
  appendFileSync(rollout, '{"timestamp":"2026-11-30T09:00:10.000Z","type":"response_item",\n');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('arbor doctor on Codex rollouts', () => {
  it('lists what the Codex importer does not model and the lines it could not read', async () => {
    const run = await runCliCaptured(['--data-dir', join(root, 'data'), 'doctor', '--json', join(root, 'sessions')], { cwd: root, homeDir: root });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FormatReport;
    expect(report.files).toBe(1);
    expect(report.unmodelled.map((finding) => [finding.category, finding.name, finding.lines, finding.versions])).toEqual([
      ['item type', 'ImageGeneration', 1, ['0.130.0']],
      ['line type', 'future_record_type', 1, ['0.130.0']],
    ]);
    expect(report.unreadable.count).toBe(1);
    expect(report.unreadable.examples[0]).toMatchObject({ file: rollout, reason: 'not valid JSON' });
  });

  it('reads the corpus rollouts: the unknown record and the malformed line', async () => {
    if (!existsSync(CORPUS)) {
      console.warn(`skipped: no Codex corpus at ${CORPUS}`);
      return;
    }
    const run = await runCliCaptured(['--data-dir', join(root, 'data'), 'doctor', CORPUS], { cwd: root, homeDir: root });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/line type\s+future_synthetic_record\s+1/);
    expect(run.stdout).toMatch(/Lines that could not be read: 1\n.*malformed\/rollout-66666666-6666-4666-8666-666666666666\.jsonl:3 {2}not valid JSON/);
  });

  it('gives a Codex session header the same report from the stored lines', async () => {
    const h = await openHarness();
    try {
      await h.service.api['import.run']({ paths: [join(root, 'sessions')] });
      const report = await h.service.api['sessions.formatReport']({ sessionId: ID });
      expect(report.unmodelled.map((finding) => [finding.category, finding.name, finding.lines])).toEqual([
        ['item type', 'ImageGeneration', 1],
        ['line type', 'future_record_type', 1],
      ]);
    } finally {
      await h.dispose();
    }
  });
});
