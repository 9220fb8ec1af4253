import { describe, expect, it } from 'vitest';
import { describeFormatReport, type FormatFinding, type FormatReport } from '../../../shared/format-report';

const finding = (category: FormatFinding['category'], name: string): FormatFinding => ({ category, name, lines: 1, versions: [], first: { file: 'f', line: 1 } });
const report = (unmodelled: FormatFinding[], unreadable = 0): FormatReport => ({
  files: 1,
  lines: 10,
  bytes: 100,
  unmodelled,
  unreadable: { count: unreadable, examples: [] },
  tooLarge: 0,
});

describe('describeFormatReport', () => {
  it('says nothing when everything is understood', () => {
    expect(describeFormatReport(report([]))).toBeNull();
  });

  it('names up to two categories with their counts, record types first', () => {
    expect(describeFormatReport(report([finding('record type', 'a'), finding('record type', 'b'), finding('record type', 'c')]))).toBe('3 record types not understood');
    expect(describeFormatReport(report([finding('user block', 'x'), finding('system subtype', 'y')]))).toBe('1 system subtype and 1 user block not understood');
  });

  it('counts line shapes beyond two categories, and adds unreadable lines', () => {
    const three = [finding('record type', 'a'), finding('system subtype', 'b'), finding('progress type', 'c')];
    expect(describeFormatReport(report(three, 2))).toBe('3 line shapes not understood, 2 lines unreadable');
    expect(describeFormatReport(report([], 1))).toBe('1 line unreadable');
  });
});
