import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightSpecialChars, lineNumbers } from '@codemirror/view';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { keymap } from '@codemirror/view';

/** CodeMirror in Arbor's colours: every value is a theme.css variable, so dark mode follows. */
const arborTheme = EditorView.theme({
  '&': {
    fontSize: '12px',
    backgroundColor: 'var(--arbor-surface)',
    color: 'var(--arbor-text)',
    height: '100%',
  },
  '.cm-scroller': { fontFamily: 'var(--arbor-mono)', lineHeight: '1.55' },
  '.cm-gutters': {
    backgroundColor: 'var(--arbor-surface-2)',
    color: 'var(--arbor-text-faint)',
    borderRight: '1px solid var(--arbor-border)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-content': { caretColor: 'transparent' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': { backgroundColor: 'var(--arbor-selection)' },
  '.cm-panels': { backgroundColor: 'var(--arbor-surface-2)', color: 'var(--arbor-text)' },
  '.cm-searchMatch': { backgroundColor: 'var(--arbor-mark)' },
  // Merge colours: the same green/red as the app's ok/danger tokens.
  '.cm-changedLine, &.cm-merge-b .cm-changedLine': { backgroundColor: 'color-mix(in srgb, var(--arbor-ok) 12%, transparent)' },
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'color-mix(in srgb, var(--arbor-danger) 12%, transparent)' },
  '.cm-changedText, &.cm-merge-b .cm-changedText': { background: 'color-mix(in srgb, var(--arbor-ok) 30%, transparent)' },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': { background: 'color-mix(in srgb, var(--arbor-danger) 30%, transparent)' },
  '.cm-collapsedLines': {
    backgroundColor: 'var(--arbor-surface-2)',
    color: 'var(--arbor-text-muted)',
    fontFamily: 'var(--arbor-font)',
  },
});

/** Read-only, searchable (Ctrl+F), line-numbered: how every file and diff in Arbor is shown. */
export function readOnlyCode(): Extension {
  return [
    lineNumbers(),
    highlightSpecialChars(),
    EditorState.readOnly.of(true),
    search({ top: true }),
    highlightSelectionMatches(),
    keymap.of(searchKeymap),
    arborTheme,
  ];
}
