/**
 * The format doctors' shared line intake: every line counted with its bytes, blank lines skipped, bad JSON reported
 * (a cut line as too large instead), findings tallied per line with the versions that wrote them, most frequent first.
 */
import { expect, it } from 'vitest';
import { FormatLineIntake } from '../../../../electron/importers/format-doctor-intake';

it('counts, parses and tallies lines into one report, as both format doctors read them', () => {
  const intake = new FormatLineIntake();
  const at = (line: number) => ({ file: '/t/a.jsonl', line });
  const line = (text: string, place: number, cut = false) => intake.parse(Buffer.from(text), at(place), Buffer.byteLength(text), cut);
  expect(line('{"type":"x"}', 1)).toEqual({ type: 'x' });
  expect(line('   ', 2)).toBeUndefined();
  expect(line('{"type":', 3)).toBeUndefined();
  expect(line('{"type":"cut', 4, true)).toBeUndefined();
  intake.oversize(at(5), 100);
  intake.file('/t/empty.jsonl');
  intake.found('record type', 'rare', at(1), null);
  intake.found('record type', 'often', at(1), '2.1.10');
  intake.found('record type', 'often', at(3), '2.1.9');
  const report = intake.report();
  expect(report).toMatchObject({ files: 2, lines: 5, tooLarge: 2 });
  expect(report.bytes).toBe(12 + 3 + 8 + 12 + 100 + 5);
  expect(report.unreadable).toEqual({ count: 1, examples: [{ ...at(3), reason: 'truncated JSON: the line ends mid-value' }] });
  expect(report.unmodelled.map((finding) => [finding.name, finding.lines, finding.versions, finding.first.line])).toEqual([
    ['often', 2, ['2.1.9', '2.1.10'], 1],
    ['rare', 1, [], 1],
  ]);
});
