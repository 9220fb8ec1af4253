/**
 * The conversation's keys, as data: j/k the next/previous step, n/p the next/previous prompt, [ and ] the
 * previous/next sibling branch at the nearest branch point above, Enter opens or folds the selected row.
 */
import { branchRowAbove, promptRow, siblingBranch, type ConversationRow, type ConversationStructure } from './branch-path';

export type ConversationKeyAction = { readonly kind: 'select'; readonly node: number } | { readonly kind: 'toggle'; readonly nodeId: string };

/** Keys typed into a field, an editor or a control are theirs. */
function typingInto(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"], .cm-editor') !== null;
}

function onControl(target: EventTarget | null): boolean {
  return typeof HTMLElement !== 'undefined' && target instanceof HTMLElement && target.closest('button, a, summary') !== null;
}

/** What `key` does with the selected row `row` (-1: none); null when the key is not the conversation's. */
export function conversationKeyAction(
  structure: ConversationStructure,
  rows: readonly ConversationRow[],
  row: number,
  key: string,
  target: EventTarget | null,
): ConversationKeyAction | null {
  if (typingInto(target) || rows.length === 0) return null;
  const select = (r: number): ConversationKeyAction | null => (r >= 0 && r < rows.length ? { kind: 'select', node: rows[r]!.node } : null);
  switch (key) {
    case 'j':
      return row < 0 ? select(0) : select(Math.min(row + 1, rows.length - 1));
    case 'k':
      return row < 0 ? select(0) : select(Math.max(row - 1, 0));
    case 'n':
      return select(promptRow(structure, rows, row, 1));
    case 'p':
      return select(promptRow(structure, rows, row < 0 ? rows.length : row, -1));
    case '[':
    case ']': {
      const at = branchRowAbove(rows, row);
      if (at < 0) return null;
      const target = siblingBranch(structure, rows[at]!.node, key === ']' ? 1 : -1);
      return target >= 0 ? { kind: 'select', node: target } : null;
    }
    case 'Enter': {
      if (row < 0 || onControl(target)) return null;
      const shown = rows[row]!;
      const nodeId = structure.nodes[shown.agentRuns[0] ?? shown.node]!.id;
      return { kind: 'toggle', nodeId };
    }
    default:
      return null;
  }
}
