/**
 * The exported branch's side-effect ledger (issue 15), built from the redacted pages as they are written: the
 * same rules as the app's ledger (electron/snapshots/side-effects/ledger.ts), read from each call's input, so a
 * secret in a command is redacted in the "Side effects" section as everywhere else.
 */
import type { LedgerEntry } from '../../shared/side-effect-ledger';
import { commandOfCall, ledgerBuilder, stepParents } from '../snapshots/side-effects';
import type { RedactedPage, ResolvedExport } from './export-source';

export interface ExportLedger {
  add(page: RedactedPage): void;
  entries(): readonly LedgerEntry[];
}

export function exportLedger(resolved: ResolvedExport): ExportLedger {
  const builder = ledgerBuilder({ cwd: resolved.session.project, parentOf: stepParents(resolved.graph.nodes), through: resolved.through });
  return {
    add(page) {
      for (const node of page.nodes) {
        builder.add({
          nodeId: node.id,
          timestamp: node.timestamp,
          file: page.files.get(node.id) ?? null,
          calls: node.toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.input, command: commandOfCall(call.name, call.input), outcome: call.outcome })),
        });
      }
    },
    entries: () => builder.entries(),
  };
}
