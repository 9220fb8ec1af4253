/**
 * One writer per format: the head (title, session, branch), the nodes a page at a time, then the tail. Each
 * returns text to append, so an export streams to its file whatever the branch's length.
 */
import type { ExportFormat, ExportedNode, ExportedSession } from '../../shared/export';
import type { NodeId, SessionLink } from '../../shared/model';
import type { LedgerEntry } from '../../shared/side-effect-ledger';
import { assertNever } from '../../shared/errors';
import { htmlExportWriter } from './html-export';
import { jsonExportWriter } from './json-export';
import { markdownExportWriter } from './markdown-export';

export interface ExportHeadInfo {
  readonly session: ExportedSession;
  readonly head: NodeId | null;
  readonly through: NodeId | null;
  readonly links: readonly SessionLink[];
  readonly nodes: number;
  readonly exportedAt: string;
  readonly arborVersion: string;
}

export interface ExportTail {
  /** Findings replaced by a redaction mark. */
  readonly redacted: number;
  /** Findings the user kept (or all of them, unredacted). */
  readonly kept: number;
  readonly noRedact: boolean;
  /** The side-effect ledger of the exported branch, from the redacted nodes (so its commands are redacted too). */
  readonly sideEffects: readonly LedgerEntry[];
}

export interface ExportWriter {
  head(info: ExportHeadInfo): string;
  nodes(nodes: readonly ExportedNode[]): string;
  tail(tail: ExportTail): string;
}

export function exportWriter(format: ExportFormat): ExportWriter {
  switch (format) {
    case 'md':
      return markdownExportWriter();
    case 'html':
      return htmlExportWriter();
    case 'json':
      return jsonExportWriter();
    default:
      return assertNever(format, 'export format');
  }
}
