/**
 * How tall a row is before it is measured. The virtualizer places every unmeasured row of a 50k-node branch
 * by this guess, so a guess far from the real height makes the scrollbar lie, shifts the view each time a
 * row above it is measured, and puts the selected row somewhere else than where the jump aimed. So the guess
 * learns: once a few rows of a sort (a prompt, a Bash call, a Read…) have been measured with their content,
 * rows of that sort are guessed at their mean height.
 */
import type { NodeSummary } from '../../../shared/model';
import type { ConversationRow } from './branch-path';

/** Heights before anything of the sort was measured. */
const FIRST_GUESS: Partial<Record<NodeSummary['kind'], number>> = { user: 84, thinking: 44, tool_call: 120 };
const ANNOTATION = 28;
const COMPACTION = 72;
const MESSAGE = 72;

/** Rows of the same sort look alike: the node's kind, and for a tool call the tools it calls. */
export function rowSort(row: ConversationRow, node: NodeSummary): string {
  if (row.kind !== 'message') return row.kind;
  if (node.kind === 'tool_call' && node.toolCalls.length > 0) return `tool_call:${node.toolCalls.map((call) => call.name).join(',')}`;
  return node.kind;
}

function firstGuess(row: ConversationRow, node: NodeSummary): number {
  if (row.kind === 'annotation') return ANNOTATION;
  if (row.kind === 'compaction') return COMPACTION;
  return FIRST_GUESS[node.kind] ?? MESSAGE;
}

export interface RowEstimates {
  /**
   * Each row's sort, as a small number, worked out once per branch: the virtualizer asks for the guess of
   * every unmeasured row below a measured one, thousands per frame while scrolling.
   */
  sortsOf(rows: readonly ConversationRow[], nodes: readonly NodeSummary[]): Int32Array;
  /** The height to assume for a row of this sort not measured yet. */
  estimate(sort: number): number;
  /**
   * A row measured with its content (not its one-line placeholder): rows of its sort are guessed nearer.
   * Only a node's first such height counts, so a row the reader opens and re-measures does not skew the sort.
   */
  observe(sort: number, nodeId: string, height: number): void;
}

export function createRowEstimates(): RowEstimates {
  // Per sort: its first guess, and the sum and count of measured heights. A handful of sorts.
  const ids = new Map<string, number>();
  const guesses: number[] = [];
  const totals: number[] = [];
  const counts: number[] = [];
  const counted = new Set<string>();
  return {
    sortsOf(rows, nodes) {
      const sorts = new Int32Array(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        const node = nodes[row.node]!;
        const name = rowSort(row, node);
        let id = ids.get(name);
        if (id === undefined) {
          id = guesses.length;
          ids.set(name, id);
          guesses.push(firstGuess(row, node));
          totals.push(0);
          counts.push(0);
        }
        sorts[r] = id;
      }
      return sorts;
    },
    estimate(sort) {
      const count = counts[sort] ?? 0;
      return count === 0 ? (guesses[sort] ?? MESSAGE) : Math.round(totals[sort]! / count);
    },
    observe(sort, nodeId, height) {
      if (!(height > 0) || sort >= guesses.length || counted.has(nodeId)) return;
      counted.add(nodeId);
      totals[sort]! += height;
      counts[sort]! += 1;
    },
  };
}

/** Where the top of `row` would be if every row before it were as tall as `height` says. O(row). */
export function estimatedStart(row: number, height: (row: number) => number): number {
  let start = 0;
  for (let r = 0; r < row; r++) start += height(r);
  return start;
}
