/**
 * The Codex format doctor: reads rollout lines one at a time (from a file, plain or compressed, or from the
 * store's raw lines) and collects what Arbor does not model yet — by the importer's own registry
 * (modelled.ts) — with counts and the Codex versions that wrote them (`session_meta.cli_version`), plus
 * the lines it could not read. Memory is bounded by the number of distinct unknown names, never by the file.
 */
import type { FormatFindingCategory, FormatPlace, FormatReport } from '../../../shared/format-report';
import { FormatLineIntake } from '../format-doctor-intake';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { isModelledEventType, isModelledItemType, isModelledLineType, isModelledResponseItemType } from './modelled';
import { readRolloutLines } from './rollout-lines';

export class CodexFormatDoctor {
  private readonly intake = new FormatLineIntake();
  /** The version each file's session_meta named: the lines after it carry none. */
  private readonly fileVersion = new Map<string, string>();

  /** One line (without its newline). `cut` says the bytes are only the line's start (a stored line over RAW_LIMIT). */
  line(bytes: Buffer, place: FormatPlace, totalBytes = bytes.length, cut = false): void {
    const value = this.intake.parse(bytes, place, totalBytes, cut);
    if (value === undefined) return;
    if (!isObject(value) || typeof value.type !== 'string' || !isObject(value.payload)) {
      this.intake.unreadable(place, 'not a rollout line: no {type, payload} envelope');
      return;
    }
    this.entry(value.type, value.payload, place);
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

  private entry(type: string, payload: JsonObject, place: FormatPlace): void {
    if (type === 'session_meta' && typeof payload.cli_version === 'string') this.fileVersion.set(place.file, payload.cli_version);
    const found = (category: FormatFindingCategory, name: string): void => this.intake.found(category, name, place, this.fileVersion.get(place.file) ?? null);
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
