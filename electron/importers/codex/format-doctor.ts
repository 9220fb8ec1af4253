/**
 * The Codex format doctor: reads rollout lines one at a time (from a file, plain or compressed, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Codex versions that wrote them (`session_meta.cli_version`), plus
 * the lines it could not read. Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatFinding, FormatFindingCategory, FormatPlace, FormatReport, UnreadableLine } from '../../../shared/format-report';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { isModelledEventType, isModelledItemType, isModelledLineType, isModelledResponseItemType } from './modelled';
import { readRolloutLines } from './rollout-lines';

const UNREADABLE_EXAMPLES = 20;
const VERSIONS_KEPT = 50;

interface Finding {
  readonly category: FormatFindingCategory;
  readonly name: string;
  lines: number;
  readonly versions: Set<string>;
  readonly first: FormatPlace;
}

export class CodexFormatDoctor {
  private readonly findings = new Map<string, Finding>();
  private readonly unreadableExamples: UnreadableLine[] = [];
  private unreadableCount = 0;
  private tooLarge = 0;
  private lines = 0;
  private bytes = 0;
  private readonly files = new Set<string>();
  /** The version each file's session_meta named: the lines after it carry none. */
  private readonly fileVersion = new Map<string, string>();

  /** One line (without its newline). `cut` says the bytes are only the line's start (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes = bytes.length, cut = false): void {
    this.files.add(place.file);
    this.lines += 1;
    this.bytes += totalBytes + 1;
    const text = bytes.toString('utf8');
    if (text.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (cut) this.tooLarge += 1;
      else this.unreadable(place, /end of JSON input|Unterminated string/i.test(String(error)) ? 'truncated JSON: the line ends mid-value' : 'not valid JSON');
      return;
    }
    if (!isObject(value) || typeof value.type !== 'string' || !isObject(value.payload)) {
      this.unreadable(place, 'not a rollout line: no {type, payload} envelope');
      return;
    }
    this.entry(value.type, value.payload, place);
  }

  oversize(place: FormatPlace, totalBytes: number): void {
    this.files.add(place.file);
    this.lines += 1;
    this.bytes += totalBytes + 1;
    this.tooLarge += 1;
  }

  file(path: string): void {
    this.files.add(path);
  }

  report(): FormatReport {
    const unmodelled: FormatFinding[] = [...this.findings.values()]
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

  private entry(type: string, payload: JsonObject, place: FormatPlace): void {
    if (type === 'session_meta' && typeof payload.cli_version === 'string') this.fileVersion.set(place.file, payload.cli_version);
    const found = (category: FormatFindingCategory, name: string): void => this.found(category, name, place);
    if (!isModelledLineType(type)) return found('line type', type);
    const inner = typeof payload.type === 'string' ? payload.type : null;
    if (type === 'response_item') {
      if (inner === null || !isModelledResponseItemType(inner)) found('response item type', inner ?? '(none)');
    } else if (type === 'event_msg') {
      if (inner === null || !isModelledEventType(inner)) found('event type', inner ?? '(none)');
      else if (inner === 'item_completed') {
        const item = isObject(payload.item) ? payload.item : null;
        const itemType = item !== null && typeof item.type === 'string' ? item.type : null;
        if (itemType === null || !isModelledItemType(itemType)) found('item type', itemType ?? '(none)');
      }
    }
  }

  private found(category: FormatFindingCategory, name: string, place: FormatPlace): void {
    const key = `${category}\0${name}`;
    let finding = this.findings.get(key);
    if (finding === undefined) {
      finding = { category, name, lines: 0, versions: new Set(), first: place };
      this.findings.set(key, finding);
    }
    finding.lines += 1;
    const version = this.fileVersion.get(place.file);
    if (version !== undefined && finding.versions.size < VERSIONS_KEPT) finding.versions.add(version);
  }

  private unreadable(place: FormatPlace, reason: string): void {
    this.unreadableCount += 1;
    if (this.unreadableExamples.length < UNREADABLE_EXAMPLES) this.unreadableExamples.push({ ...place, reason });
  }
}

/** Checks one rollout, plain or compressed, streaming, into `doctor`. */
export async function checkRolloutFile(
  doctor: CodexFormatDoctor,
  path: string,
  options: { readonly signal?: AbortSignal; readonly onBytes?: (bytesRead: number) => void } = {},
): Promise<void> {
  doctor.file(path);
  await readRolloutLines(
    path,
    (line) => {
      if (line.oversize) doctor.oversize({ file: path, line: line.line }, line.totalBytes);
      else doctor.line(line.bytes, { file: path, line: line.line });
    },
    { signal: options.signal, onBytes: options.onBytes },
  );
}

function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
