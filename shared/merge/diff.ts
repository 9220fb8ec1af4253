/**
 * Line diff, shaped like git's default (Myers + xdiff heuristics + change compaction).
 */
import { buildHunks, compactChanges, type Hunk } from './compact';
import { LineInterner } from './lines';
import { DiffScratch, markChanges } from './myers';

export type { Hunk } from './compact';

export interface DiffOptions {
  /** Search for a minimal diff even when it gets expensive (git's --minimal). */
  readonly minimal?: boolean;
}

/** Diffs interned line ids; `classes` is the interner size (ids are below it). */
export function diffIds(a: Int32Array, b: Int32Array, classes: number, scratch: DiffScratch, options: DiffOptions = {}): Hunk[] {
  const { changedA, changedB } = markChanges(a, b, classes, scratch, options.minimal === true);
  compactChanges(a, changedA, b, changedB);
  compactChanges(b, changedB, a, changedA);
  return buildHunks(changedA, a.length, changedB, b.length);
}

/** The hunks that turn lines `a` into lines `b` (lines keep their terminators, see splitLines). */
export function diffLines(a: readonly string[], b: readonly string[], options: DiffOptions = {}): Hunk[] {
  const interner = new LineInterner();
  const idsA = interner.intern(a);
  const idsB = interner.intern(b);
  return diffIds(idsA, idsB, interner.size, new DiffScratch(), options);
}
