/**
 * The format doctor: reads transcript lines one at a time (from a file through the line reader, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Claude Code versions that wrote them, plus the lines it could not read.
 * Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatFindingCategory, FormatPlace, FormatReport } from '../../../shared/format-report';
import { findingKey, FormatLineIntake, NOTHING_TO_SAY, type LineVerdict } from '../format-doctor-intake';
import { readLines } from '../line-reader';
import { isObject, objectField, stringField, type JsonObject } from './json-shape';
import { isModelledAttachmentType, isModelledBlock, isModelledProgressType, isModelledRecordType, isModelledSystemSubtype } from './modelled';

export class FormatDoctor {
  private readonly intake = new FormatLineIntake(claudeLineVerdict);

  /** One line (without its newline). `cut` says the bytes are only the line's start (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes = bytes.length, cut = false): void {
    this.intake.line(bytes, place, totalBytes, cut);
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
}

/**
 * What the doctor says of one parsed line: the parser calls it on the value it parsed, so the store counts what the
 * doctor would find in the stored line without parsing it again.
 */
export function claudeLineVerdict(value: unknown): LineVerdict {
  if (!isObject(value)) return { formatUnreadable: `not a transcript entry: a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}` };
  const version = stringField(value, 'version');
  const findings = entryFindings(value);
  if (findings === null) return version === null ? NOTHING_TO_SAY : versionOnly(version);
  return {
    ...(version !== null ? { formatVersion: version } : {}),
    ...(findings === 'no entry' ? { formatUnreadable: 'not a transcript entry: an object without "type" or "uuid"' } : findings !== null ? { formatFindings: findings } : {}),
  };
}

/** The verdict of most lines, one object per version (the import asks it of every line). */
const VERSION_ONLY = new Map<string, LineVerdict>();

function versionOnly(version: string): LineVerdict {
  let verdict = VERSION_ONLY.get(version);
  if (verdict === undefined) {
    verdict = { formatVersion: version };
    if (VERSION_ONLY.size < 1000) VERSION_ONLY.set(version, verdict);
  }
  return verdict;
}

/** What on the line is not modelled, each once; 'no entry' for an object that is no transcript entry. */
function entryFindings(entry: JsonObject): string[] | null | 'no entry' {
  const type = stringField(entry, 'type');
  if (type === null) {
    // The importer's rule (parse-transcript.ts): a uuid makes a node even without a type; else it is a problem.
    return stringField(entry, 'uuid') !== null ? [findingKey('record type', '(none)')] : 'no entry';
  }
  if (!isModelledRecordType(type)) return [findingKey('record type', type)];
  switch (type) {
    case 'system': {
      const subtype = stringField(entry, 'subtype');
      return isModelledSystemSubtype(subtype) ? null : [findingKey('system subtype', subtype ?? '(none)')];
    }
    case 'user':
    case 'assistant':
      return blockFindings(entry, type);
    case 'progress': {
      const data = objectField(entry, 'data');
      const kind = data === null ? null : stringField(data, 'type');
      return kind !== null && isModelledProgressType(kind) ? null : [findingKey('progress type', kind ?? '(none)')];
    }
    case 'attachment': {
      const attachment = objectField(entry, 'attachment');
      const kind = attachment === null ? null : stringField(attachment, 'type');
      return kind !== null && isModelledAttachmentType(kind) ? null : [findingKey('attachment type', kind ?? '(none)')];
    }
    default:
      return null;
  }
}

function blockFindings(entry: JsonObject, role: 'user' | 'assistant'): string[] | null {
  const message = objectField(entry, 'message');
  const content = message === null ? undefined : message.content;
  if (!Array.isArray(content)) return null;
  let found: string[] | null = null;
  for (const item of content) {
    if (typeof item === 'string') continue;
    const blockType = isObject(item) ? stringField(item, 'type') : null;
    if (blockType === null || !isModelledBlock(role, blockType)) {
      found = once(found, role === 'user' ? 'user block' : 'assistant block', blockType ?? '(none)');
      continue;
    }
    if (blockType !== 'tool_result' || !isObject(item) || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (typeof part === 'string') continue;
      const partType = isObject(part) ? stringField(part, 'type') : null;
      if (partType === null || !isModelledBlock('tool_result', partType)) found = once(found, 'tool result block', partType ?? '(none)');
    }
  }
  return found;
}

/** `found` with the finding added unless it is there: counted per line, not per block ("on how many lines" is what a user can look up). */
function once(found: string[] | null, category: FormatFindingCategory, name: string): string[] {
  const key = findingKey(category, name);
  if (found === null) return [key];
  if (!found.includes(key)) found.push(key);
  return found;
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
