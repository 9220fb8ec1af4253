/**
 * Every keyboard shortcut, in one table: the `?` overlay lists it and the README's "Keyboard shortcuts"
 * section is checked against it (test/unit/renderer/app/shortcuts.test.ts), so the two cannot drift.
 * The handlers live with what they act on (graph, time travel, merge, palette); this table only names them.
 */

export type ShortcutArea = 'Anywhere' | 'Session graph' | 'Conversation' | 'Sessions list' | 'Merge view';

export interface Shortcut {
  /** What to press, as shown: `Ctrl/⌘ K`, `Shift F`, `j / k`. */
  readonly keys: string;
  readonly does: string;
  readonly area: ShortcutArea;
}

export const SHORTCUT_AREAS: readonly ShortcutArea[] = ['Anywhere', 'Session graph', 'Conversation', 'Sessions list', 'Merge view'];

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Ctrl/⌘ K', does: 'Open the command palette', area: 'Anywhere' },
  { keys: '/', does: 'Search all sessions', area: 'Anywhere' },
  { keys: 'Ctrl/⌘ Shift F', does: 'Search all sessions', area: 'Anywhere' },
  { keys: '?', does: 'Show these keyboard shortcuts', area: 'Anywhere' },
  { keys: 'Escape', does: 'Close the open dialog, palette or search', area: 'Anywhere' },
  { keys: '↑ ↓ ← →', does: 'Move to the parent, first child, previous or next sibling', area: 'Session graph' },
  { keys: 'b / Shift B', does: 'Next / previous branch point', area: 'Session graph' },
  { keys: 'Enter / Space', does: 'Expand or fold the group at the cursor', area: 'Session graph' },
  { keys: 'f', does: 'Fit the whole session in view', area: 'Session graph' },
  { keys: 'Shift click', does: 'Choose a second node to compare or merge', area: 'Session graph' },
  { keys: 'r', does: 'Rewind the workspace to the selected node', area: 'Session graph' },
  { keys: 'Shift F', does: 'Fork from the selected node', area: 'Session graph' },
  { keys: 'm', does: 'Merge the compared node into the selected one', area: 'Session graph' },
  { keys: 'c', does: 'Show or hide the conversation view', area: 'Conversation' },
  { keys: 'j / k', does: 'Next / previous step', area: 'Conversation' },
  { keys: 'n / p', does: 'Next / previous prompt', area: 'Conversation' },
  { keys: '[ / ]', does: 'Previous / next sibling branch', area: 'Conversation' },
  { keys: 'Enter', does: 'Open or fold the step', area: 'Conversation' },
  { keys: '↑ ↓ Home End', does: 'Move through the sessions', area: 'Sessions list' },
  { keys: 'Enter', does: 'Open the session', area: 'Sessions list' },
  { keys: 'Alt Z', does: 'Wrap long lines in every pane (or stop)', area: 'Merge view' },
];

/** The README's lines for the table, one `| keys | does |` row each under a heading per area. */
export function shortcutsMarkdown(shortcuts: readonly Shortcut[] = SHORTCUTS): string {
  const sections = SHORTCUT_AREAS.map((area) => {
    const rows = shortcuts.filter((s) => s.area === area).map((s) => `| ${s.keys.replace(/\|/g, '\\|')} | ${s.does} |`);
    return [`**${area}**`, '', '| keys | does |', '|---|---|', ...rows].join('\n');
  });
  return sections.join('\n\n');
}

/** Typing in a field (or a CodeMirror view) must never trigger a shortcut. */
export function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}
