/**
 * One file's merge result as an editor document: the automatic merge of the shared engine, with each
 * conflict tracked as a range through every edit. Hunk actions replace a conflict's range with a
 * resolution the engine renders (changes as data); free edits are allowed anywhere, and a conflict
 * counts as settled once its markers are gone. DOM-free (@codemirror/state only), so tests and the
 * store use it without an editor on screen.
 */
import { Compartment, EditorState, StateEffect, StateField, type Extension, type Text, type TransactionSpec } from '@codemirror/state';
import { mergeText, renderRegions, type ConflictRegion, type ConflictResolution, type MergeRegion, type MergeTextResult } from '../../../shared/merge';
import { assertNever } from '../../../shared/errors';

/** What the user can take for one conflict. */
export type HunkChoice = 'ours' | 'theirs' | 'ours-then-theirs' | 'theirs-then-ours' | 'base';

export const HUNK_CHOICES: readonly HunkChoice[] = ['ours', 'theirs', 'ours-then-theirs', 'theirs-then-ours', 'base'];

export interface TrackedConflict {
  /** 0 = the first conflict of the automatic merge. */
  readonly ordinal: number;
  /** The conflict's range in the result document (markers included while it is open). */
  readonly from: number;
  readonly to: number;
  readonly region: ConflictRegion;
  /** A hunk action, free editing that removed the markers, or null while the markers remain. */
  readonly settled: HunkChoice | 'edited' | null;
  readonly open: boolean;
}

/** The three versions of a file; null when a side does not have it. */
export interface MergeTexts {
  readonly base: string | null;
  readonly ours: string | null;
  readonly theirs: string | null;
}

export interface MergeDocument {
  readonly regions: readonly MergeRegion[];
  /** The engine's base → ours and base → theirs diffs (for the panes' highlights). */
  readonly changes: MergeTextResult['changes'];
  readonly state: EditorState;
}

const settleEffect = StateEffect.define<{ readonly ordinal: number; readonly choice: HunkChoice; readonly from: number; readonly to: number }>();

/** A conflict is open while a line of its range still starts a conflict marker. */
function hasMarkers(doc: Text, from: number, to: number): boolean {
  if (to <= from) return false;
  const last = doc.lineAt(to).number;
  for (let n = doc.lineAt(from).number; n <= last; n++) {
    const line = doc.line(n);
    if (line.from >= to) break;
    const text = line.text;
    if (text.startsWith('<<<<<<<') || text.startsWith('>>>>>>>')) return true;
  }
  return false;
}

export const conflictsField = StateField.define<readonly TrackedConflict[]>({
  create: () => [],
  update(conflicts, tr) {
    const settled = new Map<number, { choice: HunkChoice; from: number; to: number }>();
    for (const effect of tr.effects) if (effect.is(settleEffect)) settled.set(effect.value.ordinal, effect.value);
    if (!tr.docChanged && settled.size === 0) return conflicts;
    return conflicts.map((conflict) => {
      const settle = settled.get(conflict.ordinal);
      if (settle !== undefined) return { ...conflict, from: settle.from, to: settle.to, settled: settle.choice, open: false };
      let touched = false;
      tr.changes.iterChangedRanges((fromA, toA) => {
        // Typing right at a boundary stays outside the conflict; anything overlapping it is an edit of it.
        if (fromA < conflict.to && toA > conflict.from) touched = true;
      });
      const from = tr.changes.mapPos(conflict.from, 1);
      const to = Math.max(from, tr.changes.mapPos(conflict.to, -1));
      if (!touched) return from === conflict.from && to === conflict.to ? conflict : { ...conflict, from, to };
      const open = hasMarkers(tr.state.doc, from, to);
      return { ...conflict, from, to, open, settled: open ? null : 'edited' };
    });
  },
});

/** Where the editor puts its view extensions (keymaps, decorations) when a document goes on screen. */
export const editorCompartment = new Compartment();

/** The editor state extensions every result document needs (the field, '\n' lines so CRLF survives). */
export function mergeDocumentExtensions(): Extension {
  return [conflictsField, EditorState.lineSeparator.of('\n'), editorCompartment.of([])];
}

/** Merges the three versions with the shared engine and tracks each conflict's range in the result. */
export function createMergeDocument(texts: MergeTexts, extensions: Extension = []): MergeDocument {
  const { regions, changes } = mergeText(texts.base ?? '', texts.ours ?? '', texts.theirs ?? '');
  let text = '';
  const conflicts: TrackedConflict[] = [];
  for (const region of regions) {
    const piece = renderRegions([region]).text;
    if (region.kind === 'conflict') {
      conflicts.push({ ordinal: conflicts.length, from: text.length, to: text.length + piece.length, region, settled: null, open: true });
    }
    text += piece;
  }
  const state = EditorState.create({
    doc: text,
    extensions: [mergeDocumentExtensions(), conflictsField.init(() => conflicts), extensions],
  });
  return { regions, changes, state };
}

/** The lines `choice` puts in place of the conflict, rendered by the shared engine. */
export function resolvedText(region: ConflictRegion, choice: HunkChoice): string {
  return renderRegions([region], [toResolution(region, choice)]).text;
}

function toResolution(region: ConflictRegion, choice: HunkChoice): ConflictResolution {
  switch (choice) {
    case 'ours':
      return { kind: 'ours' };
    case 'theirs':
      return { kind: 'theirs' };
    case 'base':
      return { kind: 'base' };
    case 'ours-then-theirs':
      return { kind: 'both' };
    case 'theirs-then-ours': {
      // As with 'both': the first side must end its last line before the second follows.
      const theirs = [...region.theirs];
      const last = theirs.length - 1;
      if (last >= 0 && region.ours.length > 0 && !(theirs[last] as string).endsWith('\n')) theirs[last] += region.eol;
      return { kind: 'edit', lines: [...theirs, ...region.ours] };
    }
    default:
      return assertNever(choice);
  }
}

export function conflictsOf(state: EditorState): readonly TrackedConflict[] {
  return state.field(conflictsField, false) ?? [];
}

export function openConflictCount(state: EditorState): number {
  let open = 0;
  for (const conflict of conflictsOf(state)) if (conflict.open) open++;
  return open;
}

/** The transaction that settles one conflict with `choice` (again, if it was settled before). */
export function settleConflict(state: EditorState, ordinal: number, choice: HunkChoice): TransactionSpec | null {
  const conflict = conflictsOf(state)[ordinal];
  if (conflict === undefined) return null;
  const insert = resolvedText(conflict.region, choice);
  return {
    changes: { from: conflict.from, to: conflict.to, insert },
    effects: settleEffect.of({ ordinal, choice, from: conflict.from, to: conflict.from + insert.length }),
    selection: { anchor: conflict.from },
    userEvent: 'input.merge',
  };
}

/** The conflict the cursor is in, if any. */
export function conflictAt(state: EditorState, pos: number = state.selection.main.head): TrackedConflict | null {
  for (const conflict of conflictsOf(state)) if (pos >= conflict.from && pos <= conflict.to && conflict.to > conflict.from) return conflict;
  return null;
}

/** The next (or previous) open conflict from `pos`, wrapping around; null when none is left. */
export function adjacentConflict(state: EditorState, direction: 1 | -1, pos: number = state.selection.main.head): TrackedConflict | null {
  const open = conflictsOf(state).filter((c) => c.open);
  if (open.length === 0) return null;
  const inside = conflictAt(state, pos);
  if (direction === 1) {
    const after = inside ? inside.to : pos;
    return open.find((c) => c !== inside && c.from >= after) ?? (open[0] as TrackedConflict);
  }
  const before = inside ? inside.from : pos;
  for (let i = open.length - 1; i >= 0; i--) {
    const c = open[i] as TrackedConflict;
    if (c !== inside && c.from < before) return c;
  }
  return open[open.length - 1] as TrackedConflict;
}

/** What the toolbar's hunk actions act on: the conflict at the cursor, else the next open one. */
export function currentConflict(state: EditorState): TrackedConflict | null {
  return conflictAt(state) ?? adjacentConflict(state, 1);
}

/**
 * Settles every conflict still open with one side ("use ours for the rest"), as one transaction.
 * Ranges are rewritten from the end so earlier positions stay valid.
 */
export function settleRemaining(state: EditorState, choice: HunkChoice): EditorState {
  let next = state;
  const open = conflictsOf(state).filter((c) => c.open);
  for (let i = open.length - 1; i >= 0; i--) {
    const spec = settleConflict(next, (open[i] as TrackedConflict).ordinal, choice);
    if (spec) next = next.update(spec).state;
  }
  return next;
}
