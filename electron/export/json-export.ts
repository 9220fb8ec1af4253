/**
 * The JSON export: one object, format "arbor-export" version 1 (shared/export.ts, electron/export/README.md),
 * written as it streams: the head, `nodes` a page at a time, then the side-effect ledger and the redaction count last.
 */
import { EXPORT_JSON_FORMAT, EXPORT_JSON_VERSION } from '../../shared/export';
import type { ExportTail, ExportWriter } from './export-writer';

export function jsonExportWriter(): ExportWriter {
  let first = true;
  return {
    head(info) {
      const head = {
        format: EXPORT_JSON_FORMAT,
        version: EXPORT_JSON_VERSION,
        exportedAt: info.exportedAt,
        arborVersion: info.arborVersion,
        session: info.session,
        branch: { head: info.head, through: info.through },
        links: info.links,
      };
      const text = JSON.stringify(head, null, 1);
      // Opens `nodes` inside the head object: everything up to its closing brace, then the array.
      return `${text.slice(0, text.lastIndexOf('}')).trimEnd()},\n "nodes": [`;
    },
    nodes(nodes) {
      let out = '';
      for (const node of nodes) {
        out += `${first ? '' : ','}\n  ${JSON.stringify(node)}`;
        first = false;
      }
      return out;
    },
    tail: (tail) => `\n ],\n "sideEffects": ${sideEffectsJson(tail)},\n "redacted": ${tail.noRedact ? 0 : tail.redacted}\n}\n`,
  };
}

/** One entry a line, like `nodes`. */
function sideEffectsJson(tail: ExportTail): string {
  return tail.sideEffects.length === 0 ? '[]' : `[${tail.sideEffects.map((entry) => `\n  ${JSON.stringify(entry)}`).join(',')}\n ]`;
}
