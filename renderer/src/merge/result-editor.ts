/**
 * The editable result's view extensions: conflicts highlighted (ours / base / theirs parts and their
 * markers), a bar of hunk actions above each conflict, next / previous conflict, and the shortcuts.
 */
import { Prec, StateField, type EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { wordClass } from './editor-setup';
import { adjacentConflict, conflictAt, conflictsField, currentConflict, settleConflict, type HunkChoice, type TrackedConflict } from './merge-document';
import { conflictWords, type TextRange } from './word-changes';

export const HUNK_CHOICE_LABELS: Readonly<Record<HunkChoice, string>> = {
  ours: 'Take ours',
  theirs: 'Take theirs',
  'ours-then-theirs': 'Both: ours first',
  'theirs-then-ours': 'Both: theirs first',
  base: 'Take base',
};

/** Alt+1…5, in the order of HUNK_CHOICE_LABELS. */
export const HUNK_CHOICE_KEYS: Readonly<Record<HunkChoice, string>> = {
  ours: 'Alt-1',
  theirs: 'Alt-2',
  'ours-then-theirs': 'Alt-3',
  'theirs-then-ours': 'Alt-4',
  base: 'Alt-5',
};

const SETTLED_LABELS: Readonly<Record<HunkChoice | 'edited', string>> = {
  ours: 'took ours',
  theirs: 'took theirs',
  'ours-then-theirs': 'took both (ours first)',
  'theirs-then-ours': 'took both (theirs first)',
  base: 'took base',
  edited: 'edited by hand',
};

/** Moves the cursor to a conflict and brings it to the middle of the editor. */
export function revealConflict(view: EditorView, conflict: TrackedConflict): void {
  view.dispatch({ selection: { anchor: conflict.from }, effects: EditorView.scrollIntoView(conflict.from, { y: 'center' }) });
}

/** Next (1) or previous (-1) open conflict; false when none is left. */
export function goToConflict(view: EditorView, direction: 1 | -1): boolean {
  const target = adjacentConflict(view.state, direction);
  if (target === null) return false;
  revealConflict(view, target);
  return true;
}

/** Settles one conflict, then moves on to the next one still open (hunk by hunk). */
export function chooseHunk(view: EditorView, ordinal: number, choice: HunkChoice): boolean {
  const spec = settleConflict(view.state, ordinal, choice);
  if (spec === null) return false;
  view.dispatch(spec);
  const next = adjacentConflict(view.state, 1);
  if (next !== null) revealConflict(view, next);
  return true;
}

/** The toolbar and shortcut form: acts on the conflict at the cursor, else the next open one. */
export function chooseCurrentHunk(view: EditorView, choice: HunkChoice): boolean {
  const conflict = currentConflict(view.state);
  return conflict === null ? false : chooseHunk(view, conflict.ordinal, choice);
}

class HunkActionsWidget extends WidgetType {
  constructor(
    readonly ordinal: number,
    readonly total: number,
    readonly settled: HunkChoice | 'edited' | null,
  ) {
    super();
  }

  override eq(other: HunkActionsWidget): boolean {
    return other.ordinal === this.ordinal && other.total === this.total && other.settled === this.settled;
  }

  toDOM(view: EditorView): HTMLElement {
    const bar = document.createElement('div');
    bar.className = `merge-hunk-bar ${this.settled === null ? 'is-open' : 'is-settled'}`;
    bar.dataset.testid = 'hunk-bar';
    bar.dataset.ordinal = String(this.ordinal);
    const title = document.createElement('span');
    title.className = 'merge-hunk-bar__title';
    title.textContent =
      this.settled === null ? `Conflict ${this.ordinal + 1} of ${this.total}` : `Conflict ${this.ordinal + 1}: ${SETTLED_LABELS[this.settled]} ✓`;
    bar.append(title);
    for (const choice of Object.keys(HUNK_CHOICE_LABELS) as HunkChoice[]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'merge-hunk-bar__action';
      button.textContent = HUNK_CHOICE_LABELS[choice];
      button.title = `${HUNK_CHOICE_LABELS[choice]} for this conflict`;
      button.dataset.choice = choice;
      // mousedown would move the editor's cursor first; the action places it itself.
      button.addEventListener('mousedown', (event) => event.preventDefault());
      button.addEventListener('click', () => void chooseHunk(view, this.ordinal, choice));
      bar.append(button);
    }
    return bar;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

function buildWidgets(state: EditorState): DecorationSet {
  const conflicts = state.field(conflictsField);
  const builder = new RangeSetBuilder<Decoration>();
  for (const conflict of conflicts) {
    if (conflict.settled === 'edited' && conflict.to === conflict.from) continue;
    const widget = new HunkActionsWidget(conflict.ordinal, conflicts.length, conflict.settled);
    builder.add(conflict.from, conflict.from, Decoration.widget({ widget, block: true, side: -1 }));
  }
  return builder.finish();
}

/** Block widgets must come from state, not from a view plugin. */
const hunkBars = StateField.define<DecorationSet>({
  create: buildWidgets,
  update(value, tr) {
    return tr.startState.field(conflictsField) === tr.state.field(conflictsField) ? value.map(tr.changes) : buildWidgets(tr.state);
  },
  provide: (f) => EditorView.decorations.from(f),
});

const lineClass = (cls: string) => Decoration.line({ class: cls });
const LINE = {
  marker: lineClass('cm-merge-marker'),
  ours: lineClass('cm-merge-ours'),
  base: lineClass('cm-merge-base'),
  theirs: lineClass('cm-merge-theirs'),
  settled: lineClass('cm-merge-settled'),
  markerCurrent: lineClass('cm-merge-marker cm-merge-current'),
  oursCurrent: lineClass('cm-merge-ours cm-merge-current'),
  baseCurrent: lineClass('cm-merge-base cm-merge-current'),
  theirsCurrent: lineClass('cm-merge-theirs cm-merge-current'),
  settledCurrent: lineClass('cm-merge-settled cm-merge-current'),
} as const;

/** Each marker line, and which part of the conflict follows it. */
const MARKER_STARTS: ReadonlyArray<readonly [string, 'ours' | 'base' | 'theirs']> = [
  ['<<<<<<<', 'ours'],
  ['|||||||', 'base'],
  ['=======', 'theirs'],
  ['>>>>>>>', 'theirs'],
];

/** Colours the lines of the conflicts near the viewport (a multi-MB result only pays for what shows). */
function conflictLines(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const { state } = view;
  const current = conflictAt(state);
  for (const conflict of state.field(conflictsField)) {
    if (conflict.to <= conflict.from) continue;
    const visible = view.visibleRanges.some((r) => r.from <= conflict.to && r.to >= conflict.from);
    if (!visible) continue;
    const isCurrent = conflict === current;
    let part: 'ours' | 'base' | 'theirs' = 'ours';
    const last = state.doc.lineAt(conflict.to - 1).number;
    for (let n = state.doc.lineAt(conflict.from).number; n <= last; n++) {
      const line = state.doc.line(n);
      const marker = conflict.settled === null ? MARKER_STARTS.find(([prefix]) => line.text.startsWith(prefix)) : undefined;
      if (marker !== undefined) part = marker[1];
      const kind: keyof typeof LINE = conflict.settled !== null ? 'settled' : marker !== undefined ? 'marker' : part;
      builder.add(line.from, line.from, LINE[isCurrent ? (`${kind}Current` as keyof typeof LINE) : kind]);
    }
  }
  return builder.finish();
}

const conflictHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = conflictLines(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged || update.selectionSet) this.decorations = conflictLines(update.view);
    }
  },
  { decorations: (v) => v.decorations },
);

const WORD_MARKS = { ours: Decoration.mark({ class: wordClass('ours') }), base: Decoration.mark({ class: wordClass('base') }), theirs: Decoration.mark({ class: wordClass('theirs') }) };

/**
 * The changed words inside each open conflict near the viewport. A part is marked only while its text is
 * still what the merge wrote there: once the user edits inside it, the word positions no longer hold.
 */
function conflictWordMarks(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const { state } = view;
  for (const conflict of state.field(conflictsField)) {
    if (conflict.settled !== null || conflict.to <= conflict.from) continue;
    if (!view.visibleRanges.some((r) => r.from <= conflict.to && r.to >= conflict.from)) continue;
    const parts: { part: 'ours' | 'base' | 'theirs'; from: number; to: number }[] = [];
    let open: { part: 'ours' | 'base' | 'theirs'; from: number } | null = null;
    const last = state.doc.lineAt(conflict.to - 1).number;
    for (let n = state.doc.lineAt(conflict.from).number; n <= last; n++) {
      const line = state.doc.line(n);
      const marker = MARKER_STARTS.find(([prefix]) => line.text.startsWith(prefix));
      if (marker === undefined) continue;
      if (open !== null) parts.push({ ...open, to: line.from });
      open = marker[0] === '>>>>>>>' ? null : { part: marker[1], from: Math.min(line.to + 1, state.doc.length) };
    }
    const words = conflictWords(conflict.region);
    for (const { part, from, to } of parts) {
      const expected = conflict.region[part].join('');
      const text = state.doc.sliceString(from, to);
      if (text !== expected && text !== expected + conflict.region.eol) continue;
      const ranges: readonly TextRange[] = words[part];
      for (const range of ranges) if (range.to > range.from) builder.add(from + range.from, from + range.to, WORD_MARKS[part]);
    }
  }
  return builder.finish();
}

const conflictWordHighlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = conflictWordMarks(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged) this.decorations = conflictWordMarks(update.view);
    }
  },
  { decorations: (v) => v.decorations },
);

/** Ahead of the default keymap (which moves lines on Alt+↑/↓). */
const mergeKeys = Prec.highest(
  EditorView.domEventHandlers({
    keydown(event, view) {
      if (!runMergeShortcut(view, event)) return false;
      event.preventDefault();
      return true;
    },
  }),
);

const DIGIT_CHOICES: Readonly<Record<string, HunkChoice>> = {
  Digit1: 'ours',
  Digit2: 'theirs',
  Digit3: 'ours-then-theirs',
  Digit4: 'theirs-then-ours',
  Digit5: 'base',
};

/** What a merge-view key does, as data (the shortcut table's coverage test reads it): move between conflicts, or take a side. */
export type MergeShortcut = { readonly kind: 'conflict'; readonly direction: 1 | -1 } | { readonly kind: 'take'; readonly choice: HunkChoice };

/** The merge view's key for `event`, or null. Physical keys (`code`) for Alt+digit, whatever the layout types with Alt. */
export function mergeShortcutOf(event: Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>): MergeShortcut | null {
  if (event.ctrlKey || event.metaKey) return null;
  if (event.key === 'F7' && !event.altKey) return { kind: 'conflict', direction: event.shiftKey ? -1 : 1 };
  if (!event.altKey || event.shiftKey) return null;
  if (event.key === 'ArrowDown') return { kind: 'conflict', direction: 1 };
  if (event.key === 'ArrowUp') return { kind: 'conflict', direction: -1 };
  const choice = DIGIT_CHOICES[event.code];
  return choice === undefined ? null : { kind: 'take', choice };
}

/** The same shortcuts anywhere in the merge view (the file list, a pane, the toolbar): they act on the open result. */
export function runMergeShortcut(view: EditorView, event: KeyboardEvent): boolean {
  const shortcut = mergeShortcutOf(event);
  if (shortcut === null) return false;
  return shortcut.kind === 'conflict' ? goToConflict(view, shortcut.direction) : chooseCurrentHunk(view, shortcut.choice);
}

/** Everything the result editor adds on screen to a merge document. */
export function resultEditorExtensions(): Extension {
  return [hunkBars, conflictHighlighter, conflictWordHighlighter, mergeKeys];
}
