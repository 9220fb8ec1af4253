/**
 * The shortcut table (the `?` overlay, the palette's hints and README's list) names every key the handlers act
 * on: F7 and Alt+1…5 worked in the merge view but were missing from it. Each area's key function is probed
 * with every key press a user can make and whatever it handles must be in the table under that area.
 */
import { describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../../shared/model';
import { buildVisibleGraph } from '../../../../shared/graph/folds';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import { comboName, SHORTCUTS, shortcutCombos, type ShortcutArea } from '../../../../renderer/src/app/shortcuts';
import { branchPath, buildConversationStructure, conversationRows } from '../../../../renderer/src/conversation/branch-path';
import { conversationKeyAction } from '../../../../renderer/src/conversation/conversation-keys';
import { keyToMove } from '../../../../renderer/src/graph/view-actions';
import { mergeShortcutOf } from '../../../../renderer/src/merge/result-editor';
import { isWrapShortcut } from '../../../../renderer/src/merge/wrap-preference';
import { nodeSummary } from '../fake-client';
import { SessionBuilder } from '../../shared/graph/session-builder';

interface Press {
  readonly key: string;
  readonly code: string;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const DIGITS = '0123456789'.split('');
const PUNCTUATION = ['[', ']', '/', '?', '.', ',', ';', "'", '-', '=', '`', '\\', '{', '}'];
const NAMED = ['Enter', ' ', 'Escape', 'Tab', 'Backspace', 'Delete', 'Home', 'End', 'PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
const FUNCTION_KEYS = Array.from({ length: 12 }, (_, k) => `F${k + 1}`);

/** Every key press: each key with no modifier, Shift, Alt, Alt+Shift, Ctrl (a letter with Shift types its capital). */
function everyPress(): Press[] {
  const presses: Press[] = [];
  const keys: { key: string; code: string }[] = [
    ...LETTERS.map((key) => ({ key, code: `Key${key.toUpperCase()}` })),
    ...DIGITS.map((key) => ({ key, code: `Digit${key}` })),
    ...[...PUNCTUATION, ...NAMED, ...FUNCTION_KEYS].map((key) => ({ key, code: key })),
  ];
  for (const { key, code } of keys) {
    for (const [altKey, shiftKey, ctrlKey] of [[false, false, false], [false, true, false], [true, false, false], [true, true, false], [false, false, true]] as const) {
      presses.push({ key: shiftKey && key.length === 1 ? key.toUpperCase() : key, code, altKey, shiftKey, ctrlKey, metaKey: false });
    }
  }
  return presses;
}

/** How the table would name a press (Alt+digit by its physical key, as the merge view reads it). */
const nameOf = (press: Press): string =>
  comboName(press.altKey && press.code.startsWith('Digit') ? press.code.slice('Digit'.length) : press.key, { mod: press.ctrlKey || press.metaKey, alt: press.altKey, shift: press.shiftKey });

const tableCombos = (area: ShortcutArea): Set<string> => new Set(SHORTCUTS.filter((s) => s.area === area).flatMap((s) => shortcutCombos(s.keys)));

function handledBy(accepts: (press: Press) => boolean): string[] {
  return [...new Set(everyPress().filter(accepts).map(nameOf))].sort();
}

describe('the shortcut table names every key the views handle', () => {
  it('reads a table entry as the key presses it names', () => {
    expect(shortcutCombos('b / Shift B')).toEqual(['b', 'Shift+b']);
    expect(shortcutCombos('↑ ↓ Home End')).toEqual(['ArrowUp', 'ArrowDown', 'Home', 'End']);
    expect(shortcutCombos('Alt 1…5')).toEqual(['Alt+1', 'Alt+2', 'Alt+3', 'Alt+4', 'Alt+5']);
    expect(shortcutCombos('Ctrl/⌘ Shift F')).toEqual(['Mod+Shift+f']);
    expect(shortcutCombos('[ / ]')).toEqual(['[', ']']);
  });

  it('F7 and Alt+1…5 in the merge view were missing from the table: every merge-view key is in it', () => {
    const handled = handledBy((press) => mergeShortcutOf(press) !== null || isWrapShortcut(press));
    expect(handled).toEqual(expect.arrayContaining(['F7', 'Shift+F7', 'Alt+1', 'Alt+5', 'Alt+ArrowDown', 'Alt+z']));
    const table = tableCombos('Merge view');
    expect(handled.filter((combo) => !table.has(combo))).toEqual([]);
  });

  it('every conversation key is in the table', () => {
    const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();
    const node = (id: string, parentId: string | null, kind: NodeSummary['kind'], second: number) => nodeSummary(id, { parentId, parentSourceId: parentId, kind, timestamp: at(second) });
    const nodes = [node('u1', null, 'user', 0), node('t1', 'u1', 'thinking', 1), node('a1', 't1', 'assistant', 2), node('u2', 'a1', 'user', 3), node('a2', 'u2', 'assistant', 4), node('u3', 'a1', 'user', 5), node('a3', 'u3', 'assistant', 6)];
    const structure = buildConversationStructure(nodes);
    const { rows } = conversationRows(structure, branchPath(structure, structure.session.indexById.get('a3')!).path);
    // ConversationView leaves presses with Ctrl, ⌘ or Alt to others; Shift reaches the key function as the key it types.
    const handled = handledBy(
      (press) => !press.altKey && !press.ctrlKey && (!press.shiftKey || press.key.length === 1) && rows.some((_, row) => conversationKeyAction(structure, rows, row, press.key, null) !== null),
    );
    expect(handled).toEqual(expect.arrayContaining(['j', 'k', 'n', 'p', '[', 'Enter']));
    const table = tableCombos('Conversation');
    expect(handled.filter((combo) => !table.has(combo))).toEqual([]);
  });

  it('every graph navigation key is in the table', () => {
    const s = new SessionBuilder();
    const prompt = s.add('user', null);
    const answer = s.add('assistant', prompt);
    s.add('user', answer);
    s.add('user', answer, { timestamp: '2025-06-01T00:00:00.000Z' });
    const structure = buildSessionStructure(s.nodes);
    const visible = buildVisibleGraph(structure, new Set());
    const handled = handledBy(
      (press) => !press.altKey && !press.ctrlKey && (!press.shiftKey || press.key.length === 1) && keyToMove(structure, visible, 1, press.key, press.shiftKey) !== null,
    );
    expect(handled).toEqual(expect.arrayContaining(['ArrowUp', 'b', 'Shift+b']));
    const table = tableCombos('Session graph');
    expect(handled.filter((combo) => !table.has(combo))).toEqual([]);
  });
});
