/**
 * The import summary counted kept lines as skipped (issue 13): every reported line was "skipped", though a
 * variant, a line with invalid UTF-8 and a record of a type Arbor does not model are all kept. Here a file
 * generated with Arbor's builder holds one of each kind, and the service's report, `arbor import --json` and
 * its text all give the same account: nodes, records, kept but not modelled, kept with a problem,
 * unreadable, incomplete.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportLineSummary, ImportReport } from '../../../shared/model';
import { runCliCaptured } from '../cli/run-cli';
import { answer, titleBuilder } from '../service/generated-titles';
import { type Harness, openHarness } from '../service/service-harness';

const SESSION = '7b7b7b7b-0000-4000-8000-000000000001';
let h: Harness;
let root: string;
beforeEach(async () => {
  h = await openHarness();
  root = mkdtempSync(join(tmpdir(), 'arbor-line-summary-'));
});
afterEach(async () => {
  await h.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** One line of each kind; returns the counts a correct summary gives. */
function writeEveryKind(path: string): ImportLineSummary {
  const b = titleBuilder(SESSION, 3);
  const prompt = b.userPrompt('Make the loader retry on timeouts');
  answer(b, 'Done.');
  b.summary('Loader retries', prompt);
  b.customTitle('Retrying loader');
  const understood = b.take();
  const nodes = understood.filter((line) => 'uuid' in (JSON.parse(line) as object)).length;
  const records = understood.length - nodes;
  b.record({ type: 'future-record-kind', value: 1 });
  const opaqueRecord = b.take();
  const parent = (JSON.parse(understood.at(-3)!) as { uuid: string }).uuid;
  const opaqueNode = JSON.stringify({ type: 'future-node-kind', uuid: '7b7b7b7b-0000-4000-8000-0000000000aa', parentUuid: parent, sessionId: SESSION, timestamp: '2026-03-01T10:00:00.000Z' });
  const variant = understood[0]!.replace('Make the loader retry on timeouts', 'Make the loader retry twice');
  b.userPrompt('Bytes: INVALID');
  const invalidUtf8 = Buffer.from(`${b.take()[0]!}\n`, 'utf8');
  const at = invalidUtf8.indexOf('INVALID');
  invalidUtf8[at] = 0xff;
  b.userPrompt('the last one, still being written');
  const last = b.take()[0]!;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from([...understood, ...opaqueRecord, opaqueNode, variant].map((line) => `${line}\n`).join('')),
      invalidUtf8,
      Buffer.from('this line is not JSON {\n'),
      Buffer.from(last.slice(0, 40)),
    ]),
  );
  // The line with invalid UTF-8 is stored as a node too (its raw bytes kept).
  return { nodes: nodes + 1, records, notModelled: 2, keptWithProblem: 2, unreadable: 1, incomplete: 1 };
}

describe('the import summary', () => {
  it('does not count kept lines as skipped: nodes, records, not modelled, kept with a problem, unreadable, incomplete', async () => {
    const file = join(h.projects, '-work-app', `${SESSION}.jsonl`);
    const expected = writeEveryKind(file);
    const report = await h.service.api['import.run']({ paths: [h.projects] });
    expect(report.lines).toEqual(expected);
    expect(report.problems).toHaveLength(expected.keptWithProblem + expected.unreadable + expected.incomplete);

    // `arbor import --json` and its text say the same of the same file.
    const where = { cwd: root, homeDir: join(root, 'home') };
    mkdirSync(where.homeDir);
    const json = await runCliCaptured(['--data-dir', join(root, 'data-json'), 'import', h.projects, '--json'], where);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as ImportReport).lines).toEqual(expected);
    const text = await runCliCaptured(['--data-dir', join(root, 'data-text'), 'import', h.projects], where);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(/skipped/);
    expect(text.stdout).toContain(`${expected.nodes} nodes and ${expected.records} records imported`);
    expect(text.stdout).toContain('2 lines kept but not modelled yet (arbor doctor lists them)');
    expect(text.stdout).toContain('2 lines kept as written, with a problem reported');
    expect(text.stdout).toContain('1 line unreadable, not imported');
    expect(text.stdout).toContain('1 file ends with an incomplete line, read when complete');
  });

  it('counts an unchanged file\'s incomplete last line again on the next import, and nothing else', async () => {
    const file = join(h.projects, '-work-app', `${SESSION}.jsonl`);
    writeEveryKind(file);
    await h.service.api['import.run']({ paths: [h.projects] });
    const again = await h.service.api['import.run']({ paths: [h.projects] });
    expect(again.lines).toEqual({ nodes: 0, records: 0, notModelled: 0, keptWithProblem: 0, unreadable: 0, incomplete: 1 });
  });
});
