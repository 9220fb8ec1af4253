/** The three-way text merge engine: pure, shared by the main side and the merge view. */
export { mergeText } from './merge-text';
export { renderRegions, DEFAULT_MARKER_SIZE } from './render';
export { diffLines, type DiffOptions, type Hunk } from './diff';
export { splitLines } from './lines';
export type {
  ConflictRegion,
  ConflictResolution,
  ConflictResolutions,
  LineEnding,
  MergeFavor,
  MergeLabels,
  MergeRegion,
  MergeStyle,
  MergeTextOptions,
  MergeTextResult,
  RenderOptions,
} from './types';
