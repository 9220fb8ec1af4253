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
  { keys: 'Delete', does: 'Delete the session (shows what goes, and asks first)', area: 'Sessions list' },
  { keys: 'F7 / Shift F7', does: 'Next / previous conflict', area: 'Merge view' },
  { keys: 'Alt ↓ / Alt ↑', does: 'Next / previous conflict', area: 'Merge view' },
  { keys: 'Alt 1…5', does: 'Take ours, theirs, ours then theirs, theirs then ours, or base at the conflict', area: 'Merge view' },
  { keys: 'Alt Z', does: 'Wrap long lines in every pane (or stop)', area: 'Merge view' },
  { keys: 'Escape', does: 'Close the merge view', area: 'Merge view' },
];

const KEY_WORDS: Readonly<Record<string, string>> = { '↑': 'ArrowUp', '↓': 'ArrowDown', '←': 'ArrowLeft', '→': 'ArrowRight', Space: ' ' };
const MODIFIER_WORDS: Readonly<Record<string, string>> = { 'Ctrl/⌘': 'Mod', Alt: 'Alt', Shift: 'Shift' };

/**
 * One key press in a comparable form: `Mod+`, `Alt+`, `Shift+` (in that order) then the key as
 * KeyboardEvent.key names it, a letter in lower case. A printed character other than a letter carries its
 * own Shift (`?`, `{`), so Shift is not named with it.
 */
export function comboName(key: string, modifiers: { readonly mod?: boolean; readonly alt?: boolean; readonly shift?: boolean }): string {
  const letter = /^[a-z]$/i.test(key);
  const named = key.length > 1;
  const shift = modifiers.shift === true && (letter || named);
  return `${modifiers.mod === true ? 'Mod+' : ''}${modifiers.alt === true ? 'Alt+' : ''}${shift ? 'Shift+' : ''}${letter ? key.toLowerCase() : key}`;
}

/** The key presses a table entry names: `b / Shift B` is b and Shift+b, `↑ ↓ Home End` four keys, `Alt 1…5` five. */
export function shortcutCombos(keys: string): string[] {
  const combos: string[] = [];
  for (const alternative of keys.split(' / ')) {
    const modifiers = { mod: false, alt: false, shift: false };
    for (const word of alternative.trim().split(/\s+/)) {
      const modifier = MODIFIER_WORDS[word];
      if (modifier === 'Mod') modifiers.mod = true;
      else if (modifier === 'Alt') modifiers.alt = true;
      else if (modifier === 'Shift') modifiers.shift = true;
      else {
        const range = /^(\d)…(\d)$/.exec(word);
        const pressed = range ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, k) => String(Number(range[1]) + k)) : [KEY_WORDS[word] ?? word];
        for (const key of pressed) combos.push(comboName(key, modifiers));
      }
    }
  }
  return combos;
}

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
