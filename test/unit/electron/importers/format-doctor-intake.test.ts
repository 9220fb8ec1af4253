/**
 * The format doctors' shared line intake: every line counted with its bytes, blank lines skipped, bad JSON reported
 * (a cut line as too large instead), findings tallied per line with the versions that wrote them, most frequent first;
 * tallies of several files merged as one reading of them in order would have.
 */
import { expect, it } from 'vitest';
import { emptyFileTally, findingKey, FormatLineIntake, reportOfTallies, tallyLine, type LineVerdict } from '../../../../electron/importers/format-doctor-intake';

/** A toy doctor: `{"v":…}` names a version, `{"f":[…]}` record types found, anything else says nothing. */
function toyVerdict(value: unknown): LineVerdict {
  const object = value as { v?: string; f?: string[] };
  return {
    ...(object.v !== undefined ? { formatVersion: object.v } : {}),
    ...(object.f !== undefined ? { formatFindings: object.f.map((name) => findingKey('record type', name)) } : {}),
  };
}

it('counts, parses and tallies lines into one report, as both format doctors read them', () => {
  const intake = new FormatLineIntake(toyVerdict);
  const at = (line: number) => ({ file: '/t/a.jsonl', line });
  const line = (text: string, place: number, cut = false) => intake.line(Buffer.from(text), at(place), Buffer.byteLength(text), cut);
  line('{"f":["rare","often"]}', 1);
  line('   ', 2);
  line('{"type":', 3);
  line('{"type":"cut', 4, true);
  intake.oversize(at(5), 100);
  line('{"v":"2.1.10","f":["often"]}', 6);
  line('{"v":"2.1.9"}', 7);
  line('{"f":["often"]}', 8);
  intake.file('/t/empty.jsonl');
  const report = intake.report();
  expect(report).toMatchObject({ files: 2, lines: 8, tooLarge: 2 });
  expect(report.bytes).toBe(22 + 3 + 8 + 12 + 100 + 28 + 13 + 15 + 8);
  expect(report.unreadable).toEqual({ count: 1, examples: [{ ...at(3), reason: 'truncated JSON: the line ends mid-value' }] });
  expect(report.unmodelled.map((finding) => [finding.name, finding.lines, finding.versions, finding.first.line])).toEqual([
    ['often', 3, ['2.1.9', '2.1.10'], 1],
    ['rare', 1, [], 1],
  ]);
});

it('merges files\' tallies as one reading of the files in order: first places from the first file, at most 50 versions, 20 examples', () => {
  const one = new FormatLineIntake(toyVerdict);
  const tallies = [emptyFileTally(), emptyFileTally()];
  const files = ['/t/a.jsonl', '/t/b.jsonl'];
  for (const [index, path] of files.entries()) {
    for (let line = 1; line <= 60; line++) {
      const text = JSON.stringify({ v: `1.${index * 30 + line}`, f: ['x'] });
      one.line(Buffer.from(text), { file: path, line }, text.length, false);
      tallyLine(tallies[index]!, line, text.length, toyVerdict(JSON.parse(text)));
      one.line(Buffer.from('nope'), { file: path, line: 100 + line }, 4, false);
      tallyLine(tallies[index]!, 100 + line, 4, { formatUnreadable: 'not valid JSON' });
    }
  }
  const merged = reportOfTallies(files.map((path, index) => ({ path, tally: tallies[index]! })));
  expect(merged).toEqual(one.report());
  expect(merged.unmodelled[0]!.versions).toHaveLength(50);
  expect(merged.unreadable.examples).toHaveLength(20);
});
