/**
 * CodeMirror setup shared by the merge view's four editors: the look (Arbor's theme variables), and
 * line highlights for the read-only ours / base / theirs panes. CodeMirror draws only the lines near
 * the viewport, which is what keeps multi-megabyte files responsive.
 */
import { Compartment, EditorState, RangeSetBuilder, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightSpecialChars, lineNumbers, type DecorationSet } from '@codemirror/view';
import type { LineSpan, PaneHighlights, PaneName } from './conflict-locations';
import type { TextRange } from './word-changes';

export const mergeTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '12px', backgroundColor: 'var(--arbor-surface)', color: 'var(--arbor-text)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--arbor-mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--arbor-surface-2)', color: 'var(--arbor-text-faint)', borderRight: '1px solid var(--arbor-border)' },
  '.cm-content': { caretColor: 'var(--arbor-text)' },
  '.cm-cursor': { borderLeftColor: 'var(--arbor-text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--arbor-selection)' },
  '.cm-merge-changed': { backgroundColor: 'var(--arbor-accent-soft)' },
  '.cm-merge-conflict': { backgroundColor: 'var(--arbor-warning-bg)' },
  '.cm-merge-current': { boxShadow: 'inset 3px 0 0 var(--arbor-warning)' },
  '.cm-merge-marker': { backgroundColor: 'var(--arbor-surface-2)', color: 'var(--arbor-text-muted)', fontWeight: '600' },
  '.cm-merge-ours': { backgroundColor: 'var(--arbor-kind-user-bg)' },
  '.cm-merge-theirs': { backgroundColor: 'var(--arbor-kind-thinking-bg)' },
  '.cm-merge-base': { backgroundColor: 'var(--arbor-surface-2)' },
  '.cm-merge-settled': { backgroundColor: 'var(--arbor-ok-bg)' },
  // Changed words: a stronger shade of the side's colour (merge.css sets them for light and dark).
  '.cm-merge-word': { borderRadius: '2px', boxShadow: '0 0 0 1px var(--merge-word-edge)' },
  '.cm-merge-word--ours': { backgroundColor: 'var(--merge-word-ours)' },
  '.cm-merge-word--theirs': { backgroundColor: 'var(--merge-word-theirs)' },
  '.cm-merge-word--removed': { backgroundColor: 'var(--merge-word-removed)' },
});

/** Where each merge editor keeps its line wrapping, so the Wrap toggle reconfigures editors in place. */
export const wrapCompartment = new Compartment();

export function wrapping(wrap: boolean): Extension {
  return wrap ? EditorView.lineWrapping : [];
}

/** What every merge editor has: line numbers, visible special characters, '\n' lines (CRLF survives). */
export function baseEditorSetup(wrap = false): Extension {
  return [lineNumbers(), highlightSpecialChars(), drawSelection(), EditorState.lineSeparator.of('\n'), mergeTheme, wrapCompartment.of(wrapping(wrap))];
}

/** The mark class for a pane's changed words: ours' and theirs' additions in their colour, the base's replaced words. */
export function wordClass(pane: PaneName): string {
  return `cm-merge-word cm-merge-word--${pane === 'base' ? 'removed' : pane}`;
}

/** A read-only pane's changed words (sorted, non-overlapping ranges of its text). */
export function paneWordMarks(words: readonly TextRange[], pane: PaneName): Extension {
  const mark = Decoration.mark({ class: wordClass(pane) });
  const field = StateField.define<DecorationSet>({
    create(state) {
      const builder = new RangeSetBuilder<Decoration>();
      const length = state.doc.length;
      for (const range of words) if (range.to <= length && range.to > range.from) builder.add(range.from, range.to, mark);
      return builder.finish();
    },
    update: (value, tr) => value.map(tr.changes),
    provide: (f) => EditorView.decorations.from(f),
  });
  return field;
}

function addLines(builder: RangeSetBuilder<Decoration>, state: EditorState, span: LineSpan, deco: Decoration): void {
  const lines = state.doc.lines;
  for (let n = span.line + 1; n <= Math.min(lines, span.line + span.count); n++) {
    const line = state.doc.line(n);
    builder.add(line.from, line.from, deco);
  }
}

const changedLine = Decoration.line({ class: 'cm-merge-changed' });
const conflictLine = Decoration.line({ class: 'cm-merge-conflict' });
const currentLine = Decoration.line({ class: 'cm-merge-conflict cm-merge-current' });

/** Marks the conflict the user is on in a side pane (its ordinal, or null). */
export const setCurrentConflict = StateEffect.define<number | null>();

/** A read-only pane's highlights: the lines its side changed, and the conflicts (the current one ringed). */
export function paneHighlights(highlights: PaneHighlights): Extension {
  const build = (state: EditorState, current: number | null): DecorationSet => {
    // One decoration per line, in document order; conflict lines win over plain changes.
    const kinds = new Map<number, Decoration>();
    highlights.changed.forEach((span) => {
      for (let i = 0; i < span.count; i++) kinds.set(span.line + i, changedLine);
    });
    highlights.conflicts.forEach((span, ordinal) => {
      for (let i = 0; i < span.count; i++) kinds.set(span.line + i, ordinal === current ? currentLine : conflictLine);
    });
    const builder = new RangeSetBuilder<Decoration>();
    for (const line of [...kinds.keys()].sort((a, b) => a - b)) addLines(builder, state, { line, count: 1 }, kinds.get(line) as Decoration);
    return builder.finish();
  };
  const field = StateField.define<{ current: number | null; decorations: DecorationSet }>({
    create: (state) => ({ current: null, decorations: build(state, null) }),
    update(value, tr) {
      for (const effect of tr.effects) {
        if (effect.is(setCurrentConflict) && effect.value !== value.current) return { current: effect.value, decorations: build(tr.state, effect.value) };
      }
      return value;
    },
    provide: (f) => EditorView.decorations.from(f, (v) => v.decorations),
  });
  return [field];
}

export function readOnlyPane(): Extension {
  return [EditorState.readOnly.of(true), EditorView.editable.of(false)];
}
