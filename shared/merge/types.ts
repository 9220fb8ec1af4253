import type { Hunk } from './compact';

/**
 * Types of the three-way text merge. Results are plain data so the merge view can re-render a
 * merge with per-conflict resolutions (changes as data) without re-running the diff.
 */

/** `merge`: ours / theirs only. `diff3`: also the base. `zdiff3`: diff3 with common edge lines moved out. */
export type MergeStyle = 'merge' | 'diff3' | 'zdiff3';

/** Resolve every conflict one way instead of writing markers (git's --ours / --theirs / --union). */
export type MergeFavor = 'ours' | 'theirs' | 'union';

/** Marker labels; `null` writes the bare marker (`<<<<<<<` with nothing after it). */
export interface MergeLabels {
  readonly ours?: string | null;
  readonly base?: string | null;
  readonly theirs?: string | null;
}

export interface MergeTextOptions {
  readonly style?: MergeStyle;
  /** Defaults: "ours", "base", "theirs". */
  readonly labels?: MergeLabels;
  /** Length of each conflict marker; git's default is 7. */
  readonly markerSize?: number;
  readonly favor?: MergeFavor;
}

export type RenderOptions = Pick<MergeTextOptions, 'style' | 'labels' | 'markerSize'>;

/** Line terminator used for markers (and for a newline added before a marker) in one conflict. */
export type LineEnding = '\n' | '\r\n';

/** Lines always keep their terminators; only a file's last line may lack one. */
export type MergeRegion =
  | { readonly kind: 'clean'; readonly lines: readonly string[] }
  | {
      readonly kind: 'conflict';
      readonly ours: readonly string[];
      /**
       * The base lines the two sides replaced. When a conflict was narrowed to a few lines (merge
       * style), this is the base of the whole overlapping change, so it can be wider than ours/theirs.
       */
      readonly base: readonly string[];
      readonly theirs: readonly string[];
      readonly eol: LineEnding;
      /** Where the conflict's lines start (0-based) in each version. */
      readonly at: { readonly ours: number; readonly base: number; readonly theirs: number };
    };

export type ConflictRegion = Extract<MergeRegion, { kind: 'conflict' }>;

export interface MergeTextResult {
  readonly text: string;
  /** Number of conflicts left in `text` (0 when the merge is clean). */
  readonly conflicts: number;
  readonly regions: readonly MergeRegion[];
  /** The two diffs the merge was made of: base → ours and base → theirs (A is the base). */
  readonly changes: { readonly ours: readonly Hunk[]; readonly theirs: readonly Hunk[] };
}

/** How the user settled one conflict in the merge view. */
export type ConflictResolution =
  | { readonly kind: 'ours' }
  | { readonly kind: 'theirs' }
  /** Ours, then theirs. */
  | { readonly kind: 'both' }
  | { readonly kind: 'base' }
  | { readonly kind: 'edit'; readonly lines: readonly string[] };

/**
 * Resolutions by conflict ordinal (0 = the first conflict region); a missing entry leaves that
 * conflict unresolved, written with markers.
 */
export type ConflictResolutions = readonly (ConflictResolution | null | undefined)[];
