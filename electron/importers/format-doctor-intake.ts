/**
 * What the format doctors (claude-code/format-doctor.ts, codex/format-doctor.ts) share: taking lines in — counted,
 * parsed as JSON, the unreadable and the too large set apart — and tallying what a doctor found, with the versions
 * that wrote it, into one FormatReport. Each doctor keeps only its own check of a parsed line (a `LineVerdict`),
 * which the import's parsers also run on the value they parsed, so the store counts a session's lines as it stores
 * them (db/format-counts.ts) by this same tally. Memory is bounded by the number of distinct findings, never by the file.
 */
import type { FormatFinding, FormatFindingCategory, FormatPlace, FormatReport, UnreadableLine } from '../../shared/format-report';

/** Unreadable lines listed one by one; the rest are counted. */
const UNREADABLE_EXAMPLES = 20;
/** Distinct versions kept per finding (a finding seen in every release would otherwise grow without end). */
const VERSIONS_KEPT = 50;

/**
 * What a doctor says of one parsed line: the version it names (which the lines after it in its file inherit), what it
 * has that is not modelled (`category\0name`, each once), or why it is no entry at all. Fields are absent when empty.
 */
export interface LineVerdict {
  readonly formatVersion?: string;
  readonly formatFindings?: readonly string[];
  readonly formatUnreadable?: string;
}

export const NOTHING_TO_SAY: LineVerdict = {};

export function findingKey(category: FormatFindingCategory, name: string): string {
  return `${category}\0${name}`;
}

/**
 * One file's tally (of one session's lines in it), as stored between imports: counts, the version the next line
 * inherits, the last line taken (lines are taken in file order), findings with their first line and versions in
 * the order first seen (a merge over files keeps the first VERSIONS_KEPT of the whole), the first unreadable lines.
 */
export interface FileTally {
  lines: number;
  bytes: number;
  tooLarge: number;
  lastLine: number;
  version: string | null;
  unreadable: number;
  examples: { readonly line: number; readonly reason: string }[];
  findings: Record<string, { lines: number; versions: string[]; first: number }>;
}

export function emptyFileTally(): FileTally {
  return { lines: 0, bytes: 0, tooLarge: 0, lastLine: 0, version: null, unreadable: 0, examples: [], findings: {} };
}

/** Takes one line into `tally` (the one code path of the doctors and the import's counts). */
export function tallyLine(tally: FileTally, line: number, totalBytes: number, verdict: LineVerdict | 'too large' | 'blank'): void {
  tally.lines += 1;
  tally.bytes += totalBytes + 1;
  tally.lastLine = line;
  if (verdict === 'blank') return;
  if (verdict === 'too large') {
    tally.tooLarge += 1;
    return;
  }
  if (verdict.formatVersion !== undefined) tally.version = verdict.formatVersion;
  if (verdict.formatUnreadable !== undefined) tallyUnreadable(tally, line, verdict.formatUnreadable);
  const findings = verdict.formatFindings;
  if (findings === undefined) return;
  for (const key of findings) {
    let finding = tally.findings[key];
    if (finding === undefined) {
      finding = { lines: 0, versions: [], first: line };
      tally.findings[key] = finding;
    }
    finding.lines += 1;
    if (tally.version !== null && finding.versions.length < VERSIONS_KEPT && !finding.versions.includes(tally.version)) finding.versions.push(tally.version);
  }
}

function tallyUnreadable(tally: FileTally, line: number, reason: string): void {
  tally.unreadable += 1;
  if (tally.examples.length < UNREADABLE_EXAMPLES) tally.examples.push({ line, reason });
}

/** The report of files' tallies, in file order (a finding's first place is its first file's). */
export function reportOfTallies(files: readonly { readonly path: string; readonly tally: FileTally }[]): FormatReport {
  const merged = new Map<string, { lines: number; versions: Set<string>; first: FormatPlace }>();
  const examples: UnreadableLine[] = [];
  let lines = 0;
  let bytes = 0;
  let tooLarge = 0;
  let unreadable = 0;
  let fileCount = 0;
  for (const { path, tally } of files) {
    if (tally.lines === 0) continue;
    fileCount += 1;
    lines += tally.lines;
    bytes += tally.bytes;
    tooLarge += tally.tooLarge;
    unreadable += tally.unreadable;
    for (const example of tally.examples) if (examples.length < UNREADABLE_EXAMPLES) examples.push({ file: path, ...example });
    for (const [key, finding] of Object.entries(tally.findings)) {
      let into = merged.get(key);
      if (into === undefined) {
        into = { lines: 0, versions: new Set(), first: { file: path, line: finding.first } };
        merged.set(key, into);
      }
      into.lines += finding.lines;
      for (const version of finding.versions) if (into.versions.size < VERSIONS_KEPT) into.versions.add(version);
    }
  }
  const unmodelled: FormatFinding[] = [...merged].map(([key, { lines: count, versions, first }]) => {
    const cut = key.indexOf('\0');
    return { category: key.slice(0, cut) as FormatFindingCategory, name: key.slice(cut + 1), lines: count, versions: [...versions].sort(compareVersions), first };
  });
  unmodelled.sort((a, b) => b.lines - a.lines || a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
  return { files: fileCount, lines, bytes, unmodelled, unreadable: { count: unreadable, examples }, tooLarge };
}

/** Lines of files, each file's in order: what `arbor doctor` and the stored-lines fallback feed. */
export class FormatLineIntake {
  private readonly tallies = new Map<string, FileTally>();

  constructor(private readonly verdictOf: (value: unknown) => LineVerdict) {}

  /** One line (without its newline); `cut` says the bytes are only the start of a longer line (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes: number, cut: boolean): void {
    tallyLine(this.tallyOf(place.file), place.line, totalBytes, lineVerdict(bytes, cut, this.verdictOf));
  }

  /** A line too large to read whole (the line reader kept only its ends). */
  oversize(place: FormatPlace, totalBytes: number): void {
    tallyLine(this.tallyOf(place.file), place.line, totalBytes, 'too large');
  }

  /** An empty file still counts as checked. */
  file(path: string): void {
    this.tallyOf(path);
  }

  report(): FormatReport {
    const files = [...this.tallies].map(([path, tally]) => ({ path, tally }));
    const report = reportOfTallies(files);
    // A file is counted once checked, lines or not (an empty transcript still was read).
    return { ...report, files: files.length };
  }

  private tallyOf(path: string): FileTally {
    let tally = this.tallies.get(path);
    if (tally === undefined) {
      tally = emptyFileTally();
      this.tallies.set(path, tally);
    }
    return tally;
  }
}

/** A line's bytes judged: blank, not JSON (unreadable, or too large when `cut`), else what `verdictOf` says of its value. */
export function lineVerdict(bytes: Buffer, cut: boolean, verdictOf: (value: unknown) => LineVerdict): LineVerdict | 'too large' | 'blank' {
  const text = bytes.toString('utf8');
  if (text.trim().length === 0) return 'blank';
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    if (cut) return 'too large';
    return { formatUnreadable: /end of JSON input|Unterminated string/i.test(String(error)) ? 'truncated JSON: the line ends mid-value' : 'not valid JSON' };
  }
  return verdictOf(value);
}

/** 2.1.10 after 2.1.9. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
