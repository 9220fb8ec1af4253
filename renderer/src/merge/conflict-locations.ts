/**
 * Where each conflict and each side's changes sit in the ours / base / theirs panes, so the panes can
 * highlight them and scroll to the conflict the user is on. Computed once when a file opens, from what the
 * merge engine already knows (its two diffs, each conflict's position in every version): re-diffing a
 * 20k-line file five times here was most of the time it took to open.
 */
import { diffLines, renderRegions, splitLines, type Hunk, type MergeRegion, type MergeTextResult } from '../../../shared/merge';
import type { MergeTexts } from './merge-document';

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

/** Maps a line of `b` to the line of `a` it came from (or the start of the hunk that replaced it). */
function mapLineBack(hunks: readonly Hunk[], lineB: number): number {
  let delta = 0;
  for (const hunk of hunks) {
    if (hunk.startB + hunk.countB <= lineB) delta += hunk.countA - hunk.countB;
    else if (hunk.startB <= lineB) return hunk.startA;
    else break;
  }
  return lineB + delta;
}

/**
 * Each conflict's lines in one pane: render the merge taking that pane's side for every conflict, diff
 * the pane's text against it (what remains is the other side's clean changes), and map back.
 */
function conflictSpans(regions: readonly MergeRegion[], pane: PaneName, text: string): LineSpan[] {
  const starts: LineSpan[] = [];
  let line = 0;
  let conflicts = 0;
  for (const region of regions) {
    if (region.kind === 'clean') {
      line += region.lines.length;
    } else {
      starts.push({ line, count: region[pane].length });
      line += region[pane].length;
      conflicts++;
    }
  }
  if (conflicts === 0) return [];
  const taken = renderRegions(regions, new Array(conflicts).fill({ kind: pane })).text;
  const hunks = diffLines(splitLines(text), splitLines(taken));
  return starts.map((span) => ({ line: mapLineBack(hunks, span.line), count: span.count }));
}

function spansOf(hunks: readonly Hunk[], side: 'A' | 'B'): LineSpan[] {
  const spans: LineSpan[] = [];
  for (const hunk of hunks) {
    const count = side === 'A' ? hunk.countA : hunk.countB;
    if (count > 0) spans.push({ line: side === 'A' ? hunk.startA : hunk.startB, count });
  }
  return spans;
}

/** Each conflict's lines in one pane, from the positions the engine recorded (else worked out by diffing). */
function conflictsIn(regions: readonly MergeRegion[], pane: PaneName, text: string): LineSpan[] {
  const spans: LineSpan[] = [];
  for (const region of regions) {
    if (region.kind !== 'conflict') continue;
    if (region.at === undefined) return conflictSpans(regions, pane, text);
    spans.push({ line: region.at[pane], count: region[pane].length });
  }
  return spans;
}

export function layoutMerge(merge: Pick<MergeTextResult, 'regions'> & Partial<Pick<MergeTextResult, 'changes'>>, texts: MergeTexts): MergeLayout {
  const { regions } = merge;
  const base = merge.changes === undefined ? splitLines(texts.base ?? '') : [];
  const byOurs = merge.changes?.ours ?? diffLines(base, splitLines(texts.ours ?? ''));
  const byTheirs = merge.changes?.theirs ?? diffLines(base, splitLines(texts.theirs ?? ''));
  const baseChanged = [...spansOf(byOurs, 'A'), ...spansOf(byTheirs, 'A')].sort((a, b) => a.line - b.line);
  return {
    ours: { changed: spansOf(byOurs, 'B'), conflicts: conflictsIn(regions, 'ours', texts.ours ?? '') },
    base: { changed: baseChanged, conflicts: conflictsIn(regions, 'base', texts.base ?? '') },
    theirs: { changed: spansOf(byTheirs, 'B'), conflicts: conflictsIn(regions, 'theirs', texts.theirs ?? '') },
  };
}
