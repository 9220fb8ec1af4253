/**
 * The format doctor: reads transcript lines one at a time (from a file through the line reader, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Claude Code versions that wrote them, plus the lines it could not read.
 * Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatFinding, FormatFindingCategory, FormatPlace, FormatReport, UnreadableLine } from '../../../shared/format-report';
import { readLines } from '../line-reader';
import { isObject, objectField, stringField, type JsonObject } from './json-shape';
import { isModelledAttachmentType, isModelledBlock, isModelledProgressType, isModelledRecordType, isModelledSystemSubtype } from './modelled';

/** Unreadable lines listed one by one; the rest are counted. */
const UNREADABLE_EXAMPLES = 20;
/** Distinct versions kept per finding (a finding seen in every release would otherwise grow without end). */
const VERSIONS_KEPT = 50;

interface Tally {
  lines: number;
  readonly versions: Set<string>;
  readonly first: FormatPlace;
}

export class FormatDoctor {
  private readonly tallies = new Map<string, { readonly category: FormatFindingCategory; readonly name: string; readonly tally: Tally }>();
  private readonly unreadableExamples: UnreadableLine[] = [];
  private unreadableCount = 0;
  private tooLarge = 0;
  private lines = 0;
  private bytes = 0;
  private readonly files = new Set<string>();
  /** The last `version` seen per file: records (queue-operation, …) carry none, the lines around them do. */
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
    if (!isObject(value)) {
      this.unreadable(place, `not a transcript entry: a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`);
      return;
    }
    this.entry(value, place);
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

  report(): FormatReport {
    const unmodelled: FormatFinding[] = [...this.tallies.values()]
      .map(({ category, name, tally }) => ({ category, name, lines: tally.lines, versions: [...tally.versions].sort(compareVersions), first: tally.first }))
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

  private entry(entry: JsonObject, place: FormatPlace): void {
    const type = stringField(entry, 'type');
    const ownVersion = stringField(entry, 'version');
    if (ownVersion !== null) this.fileVersion.set(place.file, ownVersion);
    const version = ownVersion ?? this.fileVersion.get(place.file) ?? null;
    const found = (category: FormatFindingCategory, name: string): void => this.found(category, name, place, version);
    if (type === null) {
      // The importer's rule (parse-transcript.ts): a uuid makes a node even without a type; else it is a problem.
      if (stringField(entry, 'uuid') !== null) found('record type', '(none)');
      else this.unreadable(place, 'not a transcript entry: an object without "type" or "uuid"');
      return;
    }
    if (!isModelledRecordType(type)) {
      found('record type', type);
      return;
    }
    switch (type) {
      case 'system': {
        const subtype = stringField(entry, 'subtype');
        if (!isModelledSystemSubtype(subtype)) found('system subtype', subtype ?? '(none)');
        return;
      }
      case 'user':
      case 'assistant':
        this.blocks(entry, type, found);
        return;
      case 'progress': {
        const data = objectField(entry, 'data');
        const kind = data === null ? null : stringField(data, 'type');
        if (kind === null || !isModelledProgressType(kind)) found('progress type', kind ?? '(none)');
        return;
      }
      case 'attachment': {
        const attachment = objectField(entry, 'attachment');
        const kind = attachment === null ? null : stringField(attachment, 'type');
        if (kind === null || !isModelledAttachmentType(kind)) found('attachment type', kind ?? '(none)');
        return;
      }
      default:
        return;
    }
  }

  private blocks(entry: JsonObject, role: 'user' | 'assistant', found: (category: FormatFindingCategory, name: string) => void): void {
    const message = objectField(entry, 'message');
    const content = message === null ? undefined : message.content;
    if (!Array.isArray(content)) return;
    const seen = new Set<string>();
    const once = (category: FormatFindingCategory, name: string): void => {
      // Counted per line, not per block: "on how many lines" is what a user can look up.
      const key = `${category}\0${name}`;
      if (seen.has(key)) return;
      seen.add(key);
      found(category, name);
    };
    for (const item of content) {
      if (typeof item === 'string') continue;
      const blockType = isObject(item) ? stringField(item, 'type') : null;
      if (blockType === null || !isModelledBlock(role, blockType)) {
        once(role === 'user' ? 'user block' : 'assistant block', blockType ?? '(none)');
        continue;
      }
      if (blockType !== 'tool_result' || !isObject(item) || !Array.isArray(item.content)) continue;
      for (const part of item.content) {
        if (typeof part === 'string') continue;
        const partType = isObject(part) ? stringField(part, 'type') : null;
        if (partType === null || !isModelledBlock('tool_result', partType)) once('tool result block', partType ?? '(none)');
      }
    }
  }

  private found(category: FormatFindingCategory, name: string, place: FormatPlace, version: string | null): void {
    const key = `${category}\0${name}`;
    let entry = this.tallies.get(key);
    if (entry === undefined) {
      entry = { category, name, tally: { lines: 0, versions: new Set(), first: place } };
      this.tallies.set(key, entry);
    }
    entry.tally.lines += 1;
    if (version !== null && entry.tally.versions.size < VERSIONS_KEPT) entry.tally.versions.add(version);
  }

  private unreadable(place: FormatPlace, reason: string): void {
    this.unreadableCount += 1;
    if (this.unreadableExamples.length < UNREADABLE_EXAMPLES) this.unreadableExamples.push({ ...place, reason });
  }
}

/** Checks one transcript file, streaming (the line reader's bounded buffer), into `doctor`. */
export async function checkTranscriptFile(
  doctor: FormatDoctor,
  path: string,
  options: { readonly signal?: AbortSignal; readonly onBytes?: (bytesRead: number) => void; readonly chunkSize?: number; readonly maxLineBytes?: number } = {},
): Promise<void> {
  doctor.file(path);
  await readLines(
    path,
    (line) => {
      if (line.oversize) doctor.oversize({ file: path, line: line.line }, line.totalBytes);
      else doctor.line(withoutBom(line.bytes, line.offset), { file: path, line: line.line });
    },
    {
      signal: options.signal,
      onBytes: options.onBytes,
      chunkSize: options.chunkSize,
      maxLineBytes: options.maxLineBytes,
      // A last line without a newline is read too: the doctor reports what is there, complete or not.
      onUnterminatedLine: (line) => {
        doctor.line(line.bytes, { file: path, line: line.line });
        return true;
      },
    },
  );
}

function withoutBom(bytes: Buffer, offset: number): Buffer {
  return offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** 2.1.10 after 2.1.9. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
