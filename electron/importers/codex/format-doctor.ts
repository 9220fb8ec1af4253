/**
 * The Codex format doctor: reads rollout lines one at a time (from a file, plain or compressed, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Codex versions that wrote them (`session_meta.cli_version`), plus
 * the lines it could not read. Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatPlace, FormatReport } from '../../../shared/format-report';
import { findingKey, FormatLineIntake, NOTHING_TO_SAY, type LineVerdict } from '../format-doctor-intake';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { isModelledEventType, isModelledItemType, isModelledLineType, isModelledResponseItemType } from './modelled';
import { readRolloutLines } from './rollout-lines';

export class CodexFormatDoctor {
  private readonly intake = new FormatLineIntake(codexLineVerdict);

  /** One line (without its newline). `cut` says the bytes are only the line's start (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes = bytes.length, cut = false): void {
    this.intake.line(bytes, place, totalBytes, cut);
  }

  oversize(place: FormatPlace, totalBytes: number): void {
    this.intake.oversize(place, totalBytes);
  }

  file(path: string): void {
    this.intake.file(path);
  }

  report(): FormatReport {
    return this.intake.report();
  }
}

/**
 * What the doctor says of one parsed rollout line (the parser calls it on the value it parsed): a session_meta names
 * the version (`cli_version`) the lines after it inherit.
 */
export function codexLineVerdict(value: unknown): LineVerdict {
  if (!isObject(value) || typeof value.type !== 'string' || !isObject(value.payload)) return { formatUnreadable: 'not a rollout line: no {type, payload} envelope' };
  const { type, payload } = value;
  const version = type === 'session_meta' && typeof payload.cli_version === 'string' ? payload.cli_version : null;
  const finding = lineFinding(type, payload);
  if (version === null && finding === null) return NOTHING_TO_SAY;
  return { ...(version !== null ? { formatVersion: version } : {}), ...(finding !== null ? { formatFindings: [finding] } : {}) };
}

function lineFinding(type: string, payload: JsonObject): string | null {
  if (!isModelledLineType(type)) return findingKey('line type', type);
  const inner = typeof payload.type === 'string' ? payload.type : null;
  if (type === 'response_item') {
    if (inner === null || !isModelledResponseItemType(inner)) return findingKey('response item type', inner ?? '(none)');
  } else if (type === 'event_msg') {
    if (inner === null || !isModelledEventType(inner)) return findingKey('event type', inner ?? '(none)');
    if (inner === 'item_completed') {
      const item = isObject(payload.item) ? payload.item : null;
      const itemType = item !== null && typeof item.type === 'string' ? item.type : null;
      if (itemType === null || !isModelledItemType(itemType)) return findingKey('item type', itemType ?? '(none)');
    }
  }
  return null;
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
