/**
 * The branch the conversation shows, and the few it showed last. Moving the selection along the shown branch
 * keeps it as it is (above a branch point too, as in a chat app): O(1). Another branch is found by its last
 * node (O(the branch below the selection)), and a branch shown a moment ago (‹ then ›, or back from a
 * subagent's step) is taken from the cache instead of rebuilding its 50k rows.
 */
import { branchEnd, conversationRows, pathTo, type ConversationRows, type ConversationStructure } from './branch-path';
import type { RowEstimates } from './row-estimates';

export interface BranchView {
  readonly structure: ConversationStructure;
  readonly rows: ConversationRows;
  /** Each row's node id: the virtualizer's item keys, so measured heights follow a node across branches. */
  readonly keys: readonly string[];
  /** Each row's sort for its guessed height (row-estimates.ts). */
  readonly sorts: Int32Array;
  /** The subagent run the selection sits in (opened under its call), or -1. */
  readonly openAgent: number;
}

/** Branches kept besides the shown one: enough for switching back and forth at a branch point or two. */
const KEPT = 4;

export interface BranchViews {
  /** The view for a selection (a node index, -1 for none), given the one shown now. */
  viewFor(selected: number, shown: BranchView | null): BranchView;
}

export function createBranchViews(structure: ConversationStructure, estimates: RowEstimates): BranchViews {
  // By last node, oldest first (a Map keeps insertion order).
  const kept = new Map<number, BranchView>();
  return {
    viewFor(selected, shown) {
      if (shown && shown.structure === structure && (selected < 0 || shown.rows.rowOfNode[selected]! >= 0)) return shown;
      const start = selected >= 0 ? selected : (structure.session.tree.roots[0] ?? -1);
      const { leaf, openAgent } = branchEnd(structure, start);
      let view = kept.get(leaf);
      if (view === undefined) {
        const rows = conversationRows(structure, pathTo(structure, leaf));
        view = { structure, rows, keys: rows.rows.map((row) => structure.nodes[row.node]!.id), sorts: estimates.sortsOf(rows.rows, structure.nodes), openAgent };
      } else if (view.openAgent !== openAgent) view = { ...view, openAgent };
      kept.delete(leaf);
      kept.set(leaf, view);
      if (kept.size > KEPT + 1) kept.delete(kept.keys().next().value!);
      return view;
    },
  };
}
