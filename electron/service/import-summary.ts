/**
 * The import's account of its lines (ImportLineSummary): how many became understood nodes and records, how
 * many were kept without being understood, kept with a problem, not read at all, or are still being written.
 * `arbor import` (text and --json) and the app's import report both print this one summary, so they agree.
 * Counted as lines reach the store (the import's sink) and from the problems' kinds, never from a re-read.
 */
import type { ImportLineSummary, ImportProblem } from '../../shared/model';
import { isModelledRecordType } from '../importers/claude-code/modelled';
import type { ParsedNode, ParsedRecord } from '../importers/transcript';

export type ProblemKind = 'kept' | 'unreadable' | 'incomplete' | 'file';

/**
 * What a reported problem says about its line. The reasons are written by parse-transcript.ts, line-problems.ts
 * and node-variants.ts; this reads their fixed beginnings (a test over each keeps them in step).
 */
export function problemKind(problem: ImportProblem): ProblemKind {
  if (problem.line === 0 || problem.notImported === true) return 'file';
  const reason = problem.reason;
  if (reason.startsWith('truncated: ')) return 'incomplete';
  if (reason.startsWith('invalid UTF-8') || / repeats with different content .*: kept as /.test(reason)) return 'kept';
  return 'unreadable';
}

export class ImportLineTally {
  private nodes = 0;
  private opaqueNodes = 0;
  private records = 0;
  private opaqueRecords = 0;
  private keptWithProblem = 0;
  private unreadable = 0;
  private incomplete = 0;

  node(node: ParsedNode): void {
    if (node.kind === 'unknown') this.opaqueNodes++;
    else this.nodes++;
  }

  record(record: ParsedRecord): void {
    if (isModelledRecordType(record.type)) this.records++;
    else this.opaqueRecords++;
  }

  /** Every problem the import reports, also those past the report's cap. */
  problem(problem: ImportProblem): void {
    const kind = problemKind(problem);
    if (kind === 'kept') this.keptWithProblem++;
    else if (kind === 'unreadable') this.unreadable++;
    else if (kind === 'incomplete') this.incomplete++;
  }

  /**
   * `storedNodes` is what the store added (a line read again after a worker failed is stored once), so the
   * understood nodes are what it stored less the opaque ones.
   */
  summary(storedNodes: number): ImportLineSummary {
    const { keptWithProblem, unreadable, incomplete } = this;
    const opaque = Math.min(this.opaqueNodes, storedNodes);
    return {
      nodes: Math.min(this.nodes, storedNodes - opaque),
      records: this.records,
      notModelled: opaque + this.opaqueRecords,
      keptWithProblem,
      unreadable,
      incomplete,
    };
  }
}
