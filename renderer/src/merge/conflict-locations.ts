/**
 * Where each conflict and each side's changes sit in the ours / base / theirs panes, so the panes can
 * highlight them and scroll to the conflict the user is on. Computed once when a file opens, from what the
 * merge engine already knows (its two diffs, each conflict's position in every version): re-diffing a
 * 20k-line file five times here was most of the time it took to open.
 */
import type { Hunk, MergeRegion, MergeTextResult } from '../../../shared/merge';

/** Lines [line, line + count), 0-based. */
export interface LineSpan {
  readonly line: number;
  readonly count: number;
}

export type PaneName = 'ours' | 'base' | 'theirs';

export interface ConflictLocation {
  readonly ours: LineSpan;
  readonly base: LineSpan;
  readonly theirs: LineSpan;
}

export interface PaneHighlights {
  /** Lines this side changed relative to the base (for the base pane: lines either side changed). */
  readonly changed: readonly LineSpan[];
  /** The lines of each conflict, by conflict ordinal. */
  readonly conflicts: readonly LineSpan[];
}

export type MergeLayout = Readonly<Record<PaneName, PaneHighlights>>;

function spansOf(hunks: readonly Hunk[], side: 'A' | 'B'): LineSpan[] {
  const spans: LineSpan[] = [];
  for (const hunk of hunks) {
    const count = side === 'A' ? hunk.countA : hunk.countB;
    if (count > 0) spans.push({ line: side === 'A' ? hunk.startA : hunk.startB, count });
  }
  return spans;
}

/** Each conflict's lines in one pane, from the positions the engine recorded. */
function conflictsIn(regions: readonly MergeRegion[], pane: PaneName): LineSpan[] {
  const spans: LineSpan[] = [];
  for (const region of regions) if (region.kind === 'conflict') spans.push({ line: region.at[pane], count: region[pane].length });
  return spans;
}

export function layoutMerge(merge: Pick<MergeTextResult, 'regions' | 'changes'>): MergeLayout {
  const { regions, changes } = merge;
  const baseChanged = [...spansOf(changes.ours, 'A'), ...spansOf(changes.theirs, 'A')].sort((a, b) => a.line - b.line);
  return {
    ours: { changed: spansOf(changes.ours, 'B'), conflicts: conflictsIn(regions, 'ours') },
    base: { changed: baseChanged, conflicts: conflictsIn(regions, 'base') },
    theirs: { changed: spansOf(changes.theirs, 'B'), conflicts: conflictsIn(regions, 'theirs') },
  };
}
