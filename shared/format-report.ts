/**
 * What `arbor doctor` and the app's session report say about transcripts: every record type, subtype and
 * content block Arbor does not model yet (electron/importers/claude-code/modelled.ts), with counts and the
 * agent versions that wrote them, plus the lines that could not be read.
 */

export type FormatFindingCategory =
  | 'record type'
  | 'system subtype'
  | 'user block'
  | 'assistant block'
  | 'tool result block'
  | 'progress type'
  | 'attachment type'
  // Codex rollouts (electron/importers/codex/modelled.ts)
  | 'line type'
  | 'response item type'
  | 'event type'
  | 'item type';

export interface FormatPlace {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
}

export interface FormatFinding {
  readonly category: FormatFindingCategory;
  /** The type as written (`(none)` for a missing one). */
  readonly name: string;
  /** Lines it appears on. */
  readonly lines: number;
  /** Claude Code versions that wrote those lines, sorted; empty when none said. */
  readonly versions: readonly string[];
  /** The first line it appears on. */
  readonly first: FormatPlace;
}

export interface UnreadableLine extends FormatPlace {
  readonly reason: string;
}

export interface FormatReport {
  readonly files: number;
  readonly lines: number;
  readonly bytes: number;
  /** Most lines first. */
  readonly unmodelled: readonly FormatFinding[];
  /** How many lines could not be read as a transcript entry, and the first few of them. */
  readonly unreadable: { readonly count: number; readonly examples: readonly UnreadableLine[] };
  /** Lines too large to check here (the store keeps only their first 4 MiB; a file's over 64 MiB are skipped). */
  readonly tooLarge: number;
}

/** The order categories are named in: from the whole line to its parts. */
const CATEGORY_ORDER: readonly FormatFindingCategory[] = [
  'record type',
  'system subtype',
  'user block',
  'assistant block',
  'tool result block',
  'progress type',
  'attachment type',
  'line type',
  'response item type',
  'event type',
  'item type',
];

/**
 * One line for a header: "3 record types not understood", "1 system subtype and 2 user blocks not
 * understood", "6 line shapes not understood" beyond two categories; null when everything is understood.
 */
export function describeFormatReport(report: FormatReport): string | null {
  const counts = new Map<FormatFindingCategory, number>();
  for (const finding of report.unmodelled) counts.set(finding.category, (counts.get(finding.category) ?? 0) + 1);
  const parts = CATEGORY_ORDER.flatMap((category) => {
    const count = counts.get(category) ?? 0;
    return count === 0 ? [] : [`${count} ${count === 1 ? category : `${category}s`}`];
  });
  const unreadable = report.unreadable.count;
  if (parts.length === 0 && unreadable === 0) return null;
  const shapes = parts.length > 2 ? `${report.unmodelled.length} line shapes` : joinWords(parts);
  const notUnderstood = parts.length === 0 ? '' : `${shapes} not understood`;
  const lines = unreadable === 0 ? '' : `${unreadable} ${unreadable === 1 ? 'line' : 'lines'} unreadable`;
  return [notUnderstood, lines].filter((part) => part !== '').join(', ');
}

function joinWords(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** One report for files of several formats (`arbor doctor` on a mixed folder): counts added, findings of each. */
export function mergeFormatReports(reports: readonly FormatReport[]): FormatReport {
  const examples = reports.flatMap((report) => report.unreadable.examples);
  return {
    files: reports.reduce((sum, report) => sum + report.files, 0),
    lines: reports.reduce((sum, report) => sum + report.lines, 0),
    bytes: reports.reduce((sum, report) => sum + report.bytes, 0),
    unmodelled: reports.flatMap((report) => report.unmodelled).sort((a, b) => b.lines - a.lines || a.category.localeCompare(b.category) || a.name.localeCompare(b.name)),
    unreadable: { count: reports.reduce((sum, report) => sum + report.unreadable.count, 0), examples: examples.slice(0, 20) },
    tooLarge: reports.reduce((sum, report) => sum + report.tooLarge, 0),
  };
}
