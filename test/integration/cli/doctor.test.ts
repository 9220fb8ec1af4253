/**
 * `arbor doctor` (issue 13): lists every record type, system subtype, content block, progress and
 * attachment type the importer does not model (modelled.ts), with line counts, the versions that wrote
 * them and where each first appears, plus the unreadable lines; streams, takes Ctrl-C, and reads the import's
 * default folder without a PATH. The app's `sessions.formatReport` says the same from the stored lines.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';
import type { FormatReport } from '../../../shared/format-report';
import { describeFormatReport } from '../../../shared/format-report';
import { createArborService } from '../../../electron/service/arbor-service';
import { runCliCaptured, type Run } from './run-cli';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const SESSION_ID = '0d0c7012-0000-4000-8000-000000000013';
const USAGE = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };

let root: string;
let home: string;
let projects: string;
let file: string;

function cli(args: string[], signal?: AbortSignal): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: home }, signal === undefined ? {} : { signal });
}

/** A session from Claude Code 2.1.7 then 2.1.30 with one of each shape Arbor does not model, among ones it does. */
function transcriptWithUnknownShapes(): string[] {
  const scope = { sessionId: SESSION_ID, cwd: '/w', version: '2.1.7', gitBranch: 'main', slug: 's' };
  const early = new TranscriptBuilder(scope, new Random(1), new Date('2026-11-01T10:00:00Z'));
  early.userPrompt('Fix the bug');
  const call = early.assistant([{ type: 'tool_use', id: early.toolUseId(), name: 'Read', input: { file_path: '/w/a.ts' } }], 'claude-opus-4', USAGE, 'tool_use');
  early.hookProgress('PostToolUse', 'PostToolUse:Read', 'lint', call.calls[0]!.toolUseId);
  early.toolResult(call.calls[0]!, [{ type: 'text', text: 'a' }, { type: 'tool_reference', tool_name: 'Read' }], { type: 'text' });
  early.system('future_notice', { content: 'Something new happened' });
  early.record({ type: 'future-record', sessionId: SESSION_ID, detail: 1 });
  const late = new TranscriptBuilder({ ...scope, version: '2.1.30' }, new Random(2), new Date('2026-11-02T10:00:00Z'));
  late.parentNextOn(early.last);
  late.assistant([{ type: 'text', text: 'Done' }], 'claude-opus-4', USAGE, 'end_turn');
  late.system('future_notice', { content: 'Again' });
  late.record({ type: 'future-record', sessionId: SESSION_ID });
  const lines = [...early.take(), ...late.take()];
  // Shapes built on the builder's own lines, so only the type names differ from what Claude Code writes.
  const assistant = JSON.parse(lines.find((l) => l.includes('"Done"'))!) as Record<string, unknown> & { message: { content: unknown[] } };
  assistant.uuid = '0d0c7012-0000-4000-8000-0000000000aa';
  assistant.message.content = [{ type: 'future_block', payload: 1 }, { type: 'text', text: 'still here' }, { type: 'future_block' }];
  const progress = JSON.parse(lines.find((l) => l.includes('hook_progress'))!) as Record<string, unknown> & { data: Record<string, unknown> };
  progress.uuid = '0d0c7012-0000-4000-8000-0000000000bb';
  progress.data = { type: 'future_progress' };
  const attachment = { ...progress, uuid: '0d0c7012-0000-4000-8000-0000000000cc', type: 'attachment', data: undefined, attachment: { type: 'future_attachment' } };
  const hook = { ...attachment, uuid: '0d0c7012-0000-4000-8000-0000000000dd', attachment: { type: 'hook_success', hookName: 'Stop' } };
  return [
    ...lines,
    JSON.stringify(assistant),
    JSON.stringify(progress),
    JSON.stringify(attachment),
    JSON.stringify(hook),
    '{"type":"user","uuid":"cut-off","message":{"content":"half',
    '[1,2]',
    '{"neither":"type nor uuid"}',
  ];
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-doctor-'));
  home = join(root, 'home');
  projects = join(home, '.claude', 'projects', '-w');
  mkdirSync(projects, { recursive: true });
  file = join(projects, `${SESSION_ID}.jsonl`);
  writeFileSync(file, `${transcriptWithUnknownShapes().join('\n')}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor doctor', () => {
  it('lists each unmodelled shape once with its line count, versions and first line, and the unreadable lines', async () => {
    const run = await cli(['doctor', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as FormatReport;
    const found = Object.fromEntries(report.unmodelled.map((f) => [`${f.category}:${f.name}`, f]));
    expect(Object.keys(found).sort()).toEqual([
      'assistant block:future_block',
      'attachment type:future_attachment',
      'progress type:future_progress',
      'record type:future-record',
      'system subtype:future_notice',
      'tool result block:tool_reference',
    ]);
    expect(found['system subtype:future_notice']).toMatchObject({ lines: 2, versions: ['2.1.7', '2.1.30'] });
    // Records carry no version: the lines around them say which Claude Code wrote them.
    expect(found['record type:future-record']).toMatchObject({ lines: 2, versions: ['2.1.7', '2.1.30'] });
    // Two blocks of one line count as one line.
    expect(found['assistant block:future_block']).toMatchObject({ lines: 1, versions: ['2.1.30'] });
    const lines = transcriptWithUnknownShapes();
    expect(found['record type:future-record']!.first).toEqual({ file, line: lines.findIndex((l) => l.includes('future-record')) + 1 });
    expect(report.unreadable.count).toBe(3);
    expect(report.unreadable.examples.map((l) => [l.line, l.reason])).toEqual([
      [lines.length - 2, 'truncated JSON: the line ends mid-value'],
      [lines.length - 1, 'not a transcript entry: a JSON array'],
      [lines.length, 'not a transcript entry: an object without "type" or "uuid"'],
    ]);
    expect(report).toMatchObject({ files: 1, lines: lines.length, tooLarge: 0 });
  });

  it('prints the same report as a table for a terminal', async () => {
    const run = await cli(['doctor', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Checked 1 transcript, \d+ lines/);
    expect(run.stdout).toMatch(/^ {2}system subtype +future_notice +2 +2\.1\.7, 2\.1\.30 +home\/\.claude\/projects\/-w\/.+\.jsonl:\d+$/m);
    expect(run.stdout).toContain('Lines that could not be read: 3');
  });

  it('reports only the uuid-less records Arbor stores but never reads for the demo session', async () => {
    const demo = await cli(['demo', join(root, 'demo'), '--json']);
    expect(demo.code, demo.stderr).toBe(0);
    const run = await cli(['doctor', join(root, 'demo'), '--json']);
    const report = JSON.parse(run.stdout) as FormatReport;
    expect(report.files).toBeGreaterThan(0);
    // Every node shape the demo writes is modelled; its last-prompt and permission-mode records are not.
    expect(report.unmodelled.map((f) => `${f.category}:${f.name}`).sort()).toEqual(['record type:last-prompt', 'record type:permission-mode']);
    expect(report.unreadable.count).toBe(0);
  });

  it('reads the folder arbor import reads when no PATH is given', async () => {
    const run = await cli(['doctor', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FormatReport;
    expect(report.files).toBe(1);
    expect(report.unmodelled.length).toBe(6);
  });

  it('stops on Ctrl-C with exit 130', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await cli(['doctor', file], controller.signal);
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('arbor: interrupted\n');
  });

  it('gives the same report for the imported session from its stored lines (sessions.formatReport)', async () => {
    const service = await createArborService({ dataDir: join(root, 'service-data'), host: 'cli', version: 'test', homeDir: home, env: {} });
    try {
      const imported = await service.api['import.run']({ paths: [file] });
      const sessionId = imported.sessions[0]!.id;
      const report = await service.api['sessions.formatReport']({ sessionId });
      const fromFile = JSON.parse((await cli(['doctor', file, '--json'])).stdout) as FormatReport;
      // The store keeps no unreadable lines (they are import problems), everything else matches.
      expect(report.unmodelled.map((f) => [f.category, f.name, f.lines, f.versions])).toEqual(
        fromFile.unmodelled.map((f) => [f.category, f.name, f.lines, f.versions]),
      );
      expect(describeFormatReport(report)).toBe('6 line shapes not understood');
      await expect(service.api['sessions.formatReport']({ sessionId: 'no-such-session' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await service.close();
    }
  });

  it.skipIf(!existsSync(CORPUS))('on the public corpus lists only what Arbor really does not model', async () => {
    const run = await cli(['doctor', CORPUS, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FormatReport;
    const names = report.unmodelled.map((f) => `${f.category}:${f.name}`).sort();
    // Each is kept but not understood: uuid-less records Arbor stores but never reads, a tool_result part
    // it drops from the result text, attachments shown only by their type name.
    expect(names).toEqual([
      'attachment type:deferred_tools_delta',
      'attachment type:skill_listing',
      'attachment type:task_reminder',
      'record type:last-prompt',
      'record type:permission-mode',
      'record type:queue-operation',
      'tool result block:tool_reference',
    ]);
  });
});
