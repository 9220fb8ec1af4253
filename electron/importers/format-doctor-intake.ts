/**
 * What the format doctors (claude-code/format-doctor.ts, codex/format-doctor.ts) share: taking lines in — counted,
 * parsed as JSON, the unreadable and the too large set apart — and tallying what a doctor found, with the versions
 * that wrote it, into one FormatReport. Each doctor keeps only its own checks of a parsed line. Memory is bounded by
 * the number of distinct findings, never by the file.
 */
import type { FormatFinding, FormatFindingCategory, FormatPlace, FormatReport, UnreadableLine } from '../../shared/format-report';

/** Unreadable lines listed one by one; the rest are counted. */
const UNREADABLE_EXAMPLES = 20;
/** Distinct versions kept per finding (a finding seen in every release would otherwise grow without end). */
const VERSIONS_KEPT = 50;

interface Tally {
  readonly category: FormatFindingCategory;
  readonly name: string;
  lines: number;
  readonly versions: Set<string>;
  readonly first: FormatPlace;
}

export class FormatLineIntake {
  private readonly tallies = new Map<string, Tally>();
  private readonly unreadableExamples: UnreadableLine[] = [];
  private unreadableCount = 0;
  private tooLarge = 0;
  private lines = 0;
  private bytes = 0;
  private readonly files = new Set<string>();

  /**
   * One line (without its newline), counted; its parsed JSON, or undefined when there is nothing to check (a blank
   * line, or one that is not JSON: reported as unreadable, or as too large when `cut`, the start of a longer line).
   */
  parse(bytes: Buffer, place: FormatPlace, totalBytes: number, cut: boolean): unknown {
    this.files.add(place.file);
    this.lines += 1;
    this.bytes += totalBytes + 1;
    const text = bytes.toString('utf8');
    if (text.trim().length === 0) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      if (cut) this.tooLarge += 1;
      else this.unreadable(place, /end of JSON input|Unterminated string/i.test(String(error)) ? 'truncated JSON: the line ends mid-value' : 'not valid JSON');
      return undefined;
    }
  }

  /** A line too large to read whole (the line reader kept only its ends). */
  oversize(place: FormatPlace, totalBytes: number): void {
    this.files.add(place.file);
    this.lines += 1;
    this.bytes += totalBytes + 1;
    this.tooLarge += 1;
  }

  /** An empty file still counts as checked. */
  file(path: string): void {
    this.files.add(path);
  }

  unreadable(place: FormatPlace, reason: string): void {
    this.unreadableCount += 1;
    if (this.unreadableExamples.length < UNREADABLE_EXAMPLES) this.unreadableExamples.push({ ...place, reason });
  }

  /** Something the importer does not model, on this line, written by `version` (null: not known). */
  found(category: FormatFindingCategory, name: string, place: FormatPlace, version: string | null): void {
    const key = `${category}\0${name}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      tally = { category, name, lines: 0, versions: new Set(), first: place };
      this.tallies.set(key, tally);
    }
    tally.lines += 1;
    if (version !== null && tally.versions.size < VERSIONS_KEPT) tally.versions.add(version);
  }

  report(): FormatReport {
    const unmodelled: FormatFinding[] = [...this.tallies.values()]
      .map(({ category, name, lines, versions, first }) => ({ category, name, lines, versions: [...versions].sort(compareVersions), first }))
      .sort((a, b) => b.lines - a.lines || a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
    return {
      files: this.files.size,
      lines: this.lines,
      bytes: this.bytes,
      unmodelled,
      unreadable: { count: this.unreadableCount, examples: [...this.unreadableExamples] },
      tooLarge: this.tooLarge,
    };
  }
}

/** 2.1.10 after 2.1.9. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
