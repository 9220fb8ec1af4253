import { describe, expect, it } from 'vitest';
import { diffLines, mergeText, renderRegions, splitLines, type Hunk } from '../../../../shared/merge';
import {
  adjacentConflict,
  conflictsOf,
  createMergeDocument,
  currentConflict,
  openConflictCount,
  settleConflict,
  settleRemaining,
} from '../../../../renderer/src/merge/merge-document';
import { layoutMerge } from '../../../../renderer/src/merge/conflict-locations';
import type { EditorState } from '@codemirror/state';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

/** Two conflicts (lines 2 and 6), a clean change by theirs between them (line 4). */
const BASE = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven');
const OURS = lines('one', 'TWO-ours', 'three', 'four', 'five', 'SIX-ours', 'seven');
const THEIRS = lines('one', 'TWO-theirs', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven');

function open(): EditorState {
  return createMergeDocument({ base: BASE, ours: OURS, theirs: THEIRS }).state;
}

function settle(state: EditorState, ordinal: number, choice: Parameters<typeof settleConflict>[2]): EditorState {
  const spec = settleConflict(state, ordinal, choice);
  if (spec === null) throw new Error('no such conflict');
  return state.update(spec).state;
}

describe('merge document', () => {
  it('starts from the shared engine’s automatic merge, conflicts tracked where their markers are', () => {
    const state = open();
    expect(state.doc.toString()).toBe(mergeText(BASE, OURS, THEIRS).text);
    const conflicts = conflictsOf(state);
    expect(conflicts).toHaveLength(2);
    expect(openConflictCount(state)).toBe(2);
    for (const conflict of conflicts) {
      const text = state.sliceDoc(conflict.from, conflict.to);
      expect(text.startsWith('<<<<<<< ours\n')).toBe(true);
      expect(text.endsWith('>>>>>>> theirs\n')).toBe(true);
    }
  });

  it.each([
    ['ours', 'TWO-ours\n'],
    ['theirs', 'TWO-theirs\n'],
    ['ours-then-theirs', 'TWO-ours\nTWO-theirs\n'],
    ['theirs-then-ours', 'TWO-theirs\nTWO-ours\n'],
    ['base', 'two\n'],
  ] as const)('taking %s for a hunk writes exactly that in its place', (choice, expected) => {
    const state = settle(open(), 0, choice);
    const text = state.doc.toString();
    expect(text.startsWith(`one\n${expected}three\nFOUR-theirs\nfive\n<<<<<<< ours\n`)).toBe(true);
    expect(openConflictCount(state)).toBe(1);
    expect(conflictsOf(state)[0]?.settled).toBe(choice);
    // The other conflict still maps to its markers after the edit before it.
    const second = conflictsOf(state)[1]!;
    expect(state.sliceDoc(second.from, second.to)).toBe('<<<<<<< ours\nSIX-ours\n=======\nSIX-theirs\n>>>>>>> theirs\n');
  });

  it('resolving hunk by hunk gives the merged file, and a hunk can be taken again another way', () => {
    let state = settle(open(), 1, 'theirs');
    state = settle(state, 0, 'ours');
    expect(state.doc.toString()).toBe(lines('one', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven'));
    state = settle(state, 0, 'base');
    expect(state.doc.toString()).toBe(lines('one', 'two', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven'));
    expect(openConflictCount(state)).toBe(0);
  });

  it('theirs-then-ours ends theirs’ last line when it has no newline (like git’s union does for ours)', () => {
    const state = createMergeDocument({ base: 'a\nb', ours: 'a\nours', theirs: 'a\ntheirs' }).state;
    expect(settle(state, 0, 'theirs-then-ours').doc.toString()).toBe('a\ntheirs\nours');
    expect(settle(state, 0, 'ours-then-theirs').doc.toString()).toBe('a\nours\ntheirs');
  });

  it('free editing that removes a conflict’s markers settles it; editing inside one keeps it open', () => {
    let state = open();
    const first = conflictsOf(state)[0]!;
    // Type inside the conflict: still open.
    const oursLine = state.doc.lineAt(first.from).to + 1;
    state = state.update({ changes: { from: oursLine, insert: 'x' } }).state;
    expect(openConflictCount(state)).toBe(2);
    // Replace the whole conflict by hand.
    const now = conflictsOf(state)[0]!;
    state = state.update({ changes: { from: now.from, to: now.to, insert: 'hand-written\n' } }).state;
    expect(openConflictCount(state)).toBe(1);
    expect(conflictsOf(state)[0]?.settled).toBe('edited');
    expect(state.sliceDoc(conflictsOf(state)[0]!.from, conflictsOf(state)[0]!.to)).toBe('hand-written\n');
    // Edits elsewhere move the ranges along.
    state = state.update({ changes: { from: 0, insert: 'zero\n' } }).state;
    const second = conflictsOf(state)[1]!;
    expect(state.sliceDoc(second.from, second.from + 12)).toBe('<<<<<<< ours');
  });

  it('keeps CRLF line endings byte for byte', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const state = createMergeDocument({ base: crlf(BASE), ours: crlf(OURS), theirs: crlf(THEIRS) }).state;
    expect(state.doc.toString()).toBe(mergeText(crlf(BASE), crlf(OURS), crlf(THEIRS)).text);
    const resolved = settleRemaining(state, 'ours');
    expect(resolved.doc.toString()).toBe(crlf(lines('one', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-ours', 'seven')));
  });

  it('“use theirs for the rest” settles only what is still open', () => {
    const state = settleRemaining(settle(open(), 0, 'ours'), 'theirs');
    expect(state.doc.toString()).toBe(lines('one', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven'));
    expect(openConflictCount(state)).toBe(0);
  });
});

describe('conflict navigation', () => {
  it('next and previous go from conflict to conflict and wrap around', () => {
    const state = open();
    const [first, second] = conflictsOf(state);
    const at = (pos: number) => state.update({ selection: { anchor: pos } }).state;
    expect(adjacentConflict(at(0), 1)).toBe(first);
    expect(adjacentConflict(at(first!.from), 1)).toBe(second);
    expect(adjacentConflict(at(second!.from + 3), 1)).toBe(first); // wraps
    expect(adjacentConflict(at(second!.from), -1)).toBe(first);
    expect(adjacentConflict(at(0), -1)).toBe(second); // wraps backwards
    expect(currentConflict(at(first!.from + 2))).toBe(first);
  });

  it('skips settled conflicts and says when none is left', () => {
    let state = settle(open(), 0, 'ours');
    expect(adjacentConflict(state.update({ selection: { anchor: 0 } }).state, 1)?.ordinal).toBe(1);
    expect(adjacentConflict(state, -1)?.ordinal).toBe(1);
    state = settle(state, 1, 'theirs');
    expect(adjacentConflict(state, 1)).toBeNull();
    expect(adjacentConflict(state, -1)).toBeNull();
  });
});

describe('pane layout', () => {
  it('finds each conflict in ours, base and theirs, and each side’s changed lines', () => {
    const layout = layoutMerge(mergeText(BASE, OURS, THEIRS));
    expect(layoutByDiffing(BASE, OURS, THEIRS)).toEqual(layout);
    expect(layout.ours.conflicts).toEqual([
      { line: 1, count: 1 },
      { line: 5, count: 1 },
    ]);
    expect(layout.theirs.conflicts).toEqual([
      { line: 1, count: 1 },
      { line: 5, count: 1 },
    ]);
    expect(layout.base.conflicts).toEqual([
      { line: 1, count: 1 },
      { line: 5, count: 1 },
    ]);
    expect(layout.theirs.changed).toEqual([
      { line: 1, count: 1 },
      { line: 3, count: 1 },
      { line: 5, count: 1 },
    ]);
    expect(layout.ours.changed).toEqual([
      { line: 1, count: 1 },
      { line: 5, count: 1 },
    ]);
  });

  it('maps conflicts past lines the other side inserted', () => {
    const base = lines('a', 'b', 'c', 'd', 'e', 'f');
    const ours = lines('a', 'b', 'c', 'd', 'e', 'F-ours');
    const theirs = lines('a', 'new1', 'new2', 'b', 'c', 'd', 'e', 'F-theirs');
    const layout = layoutMerge(mergeText(base, ours, theirs));
    expect(layoutByDiffing(base, ours, theirs)).toEqual(layout);
    expect(layout.ours.conflicts).toEqual([{ line: 5, count: 1 }]);
    expect(layout.theirs.conflicts).toEqual([{ line: 7, count: 1 }]);
    expect(layout.base.conflicts).toEqual([{ line: 5, count: 1 }]);
  });

  it('places conflicts and changes from the engine’s own positions exactly where re-diffing the panes finds them', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const edit = (source: string[]): string[] => {
      const out = [...source];
      for (let k = random(6); k > 0; k--) {
        const at = random(out.length + 1);
        const op = random(3);
        if (op === 0) out.splice(at, 1);
        else if (op === 1) out.splice(at, 0, `ins${random(5)}\n`);
        else out.splice(at, 1, `chg${random(5)}\n`);
      }
      return out;
    };
    for (let round = 0; round < 300; round++) {
      const base = Array.from({ length: 5 + random(25) }, (_, i) => `l${i % 9}\n`);
      const [b, o, t] = [base.join(''), edit(base).join(''), edit(base).join('')];
      const merged = mergeText(b, o, t);
      expect(layoutMerge(merged), `round ${round}`).toEqual(layoutByDiffing(b, o, t));
    }
  });
});

/**
 * The layout worked out without the engine's positions and diffs, by diffing the panes: each side's changes
 * against the base; each conflict found by rendering the merge with that pane's side taken everywhere,
 * diffing the pane against it (what remains is the other side's clean changes) and mapping back.
 */
function layoutByDiffing(base: string, ours: string, theirs: string): ReturnType<typeof layoutMerge> {
  const { regions } = mergeText(base, ours, theirs);
  const texts = { base, ours, theirs };
  const mapLineBack = (hunks: readonly Hunk[], lineB: number): number => {
    let delta = 0;
    for (const hunk of hunks) {
      if (hunk.startB + hunk.countB <= lineB) delta += hunk.countA - hunk.countB;
      else if (hunk.startB <= lineB) return hunk.startA;
      else break;
    }
    return lineB + delta;
  };
  const conflictSpans = (pane: 'ours' | 'base' | 'theirs'): { line: number; count: number }[] => {
    const starts: { line: number; count: number }[] = [];
    let line = 0;
    for (const region of regions) {
      const count = region.kind === 'clean' ? region.lines.length : region[pane].length;
      if (region.kind === 'conflict') starts.push({ line, count });
      line += count;
    }
    if (starts.length === 0) return [];
    const taken = renderRegions(regions, new Array(starts.length).fill({ kind: pane })).text;
    const hunks = diffLines(splitLines(texts[pane]), splitLines(taken));
    return starts.map((span) => ({ line: mapLineBack(hunks, span.line), count: span.count }));
  };
  const spans = (hunks: readonly Hunk[], side: 'A' | 'B') =>
    hunks.filter((h) => (side === 'A' ? h.countA : h.countB) > 0).map((h) => (side === 'A' ? { line: h.startA, count: h.countA } : { line: h.startB, count: h.countB }));
  const baseLines = splitLines(base);
  const byOurs = diffLines(baseLines, splitLines(ours));
  const byTheirs = diffLines(baseLines, splitLines(theirs));
  return {
    ours: { changed: spans(byOurs, 'B'), conflicts: conflictSpans('ours') },
    base: { changed: [...spans(byOurs, 'A'), ...spans(byTheirs, 'A')].sort((a, b) => a.line - b.line), conflicts: conflictSpans('base') },
    theirs: { changed: spans(byTheirs, 'B'), conflicts: conflictSpans('theirs') },
  };
}
