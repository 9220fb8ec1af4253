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
export { mergeTrees, sameFile } from './tree-merge';
export { settleWithSide } from './tree-settle';
export { detectRenames, type DetectedRename } from './tree-renames';
export { commonEncoding, decodeText, encodeText, isBinaryBytes, isUtf8, type TextEncodingName } from './text-bytes';
export {
  SYMLINK_MODE,
  type LoadBlob,
  type MergedContent,
  type TreeFile,
  type TreeFileMode,
  type TreeFiles,
  type TreeMergeFile,
  type TreeMergeInput,
  type TreeMergeResult,
} from './tree-types';
