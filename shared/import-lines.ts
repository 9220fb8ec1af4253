/**
 * The words for an import's line summary (ImportLineSummary), shared so `arbor import` and the app's import
 * report say the same: what was imported, then what was kept and how, then what was not read.
 */
import type { ImportLineSummary } from './model';

/** The summary as the CLI prints it and the app shows it: what was imported, then what was kept and how. */
export function describeImportLines(lines: ImportLineSummary): string[] {
  const out: string[] = [];
  const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  if (lines.nodes > 0 || lines.records > 0) out.push(`${count(lines.nodes, 'node')} and ${count(lines.records, 'record')} imported`);
  if (lines.notModelled > 0) out.push(`${count(lines.notModelled, 'line')} kept but not modelled yet (arbor doctor lists them)`);
  if (lines.keptWithProblem > 0) out.push(`${count(lines.keptWithProblem, 'line')} kept as written, with a problem reported`);
  if (lines.unreadable > 0) out.push(`${count(lines.unreadable, 'line')} unreadable, not imported`);
  if (lines.incomplete > 0) out.push(`${count(lines.incomplete, 'file')} ${lines.incomplete === 1 ? 'ends' : 'end'} with an incomplete line, read when complete`);
  return out;
}
