/**
 * The format doctor: reads transcript lines one at a time (from a file through the line reader, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Claude Code versions that wrote them, plus the lines it could not read.
 * Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatFindingCategory, FormatPlace, FormatReport } from '../../../shared/format-report';
import { FormatLineIntake } from '../format-doctor-intake';
import { readLines } from '../line-reader';
import { isObject, objectField, stringField, type JsonObject } from './json-shape';
import { isModelledAttachmentType, isModelledBlock, isModelledProgressType, isModelledRecordType, isModelledSystemSubtype } from './modelled';

export class FormatDoctor {
  private readonly intake = new FormatLineIntake();
  /** The last `version` seen per file: records (queue-operation, …) carry none, the lines around them do. */
  private readonly fileVersion = new Map<string, string>();

  /** One line (without its newline). `cut` says the bytes are only the line's start (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes = bytes.length, cut = false): void {
    const value = this.intake.parse(bytes, place, totalBytes, cut);
    if (value === undefined) return;
    if (!isObject(value)) {
      this.intake.unreadable(place, `not a transcript entry: a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`);
      return;
    }
    this.entry(value, place);
  }

  /** A line too large to read whole (the line reader kept only its ends). */
  oversize(place: FormatPlace, totalBytes: number): void {
    this.intake.oversize(place, totalBytes);
  }

  /** An empty file still counts as checked. */
  file(path: string): void {
    this.intake.file(path);
  }

  report(): FormatReport {
    return this.intake.report();
  }

  private entry(entry: JsonObject, place: FormatPlace): void {
    const type = stringField(entry, 'type');
    const ownVersion = stringField(entry, 'version');
    if (ownVersion !== null) this.fileVersion.set(place.file, ownVersion);
    const version = ownVersion ?? this.fileVersion.get(place.file) ?? null;
    const found = (category: FormatFindingCategory, name: string): void => this.intake.found(category, name, place, version);
    if (type === null) {
      // The importer's rule (parse-transcript.ts): a uuid makes a node even without a type; else it is a problem.
      if (stringField(entry, 'uuid') !== null) found('record type', '(none)');
      else this.intake.unreadable(place, 'not a transcript entry: an object without "type" or "uuid"');
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
