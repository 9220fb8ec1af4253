/**
 * Reconstruction of workspace file state from transcripts (DESIGN.md "snapshot", kind `reconstructed`):
 * pure logic over a session's nodes and their transcript lines; storing snapshots is the object store's job.
 */
export { applyPatch, reversePatch, unapplyPatch, readHunks, type PatchHunk } from './patch';
export { applyContextPatch } from './context-patch';
export {
  readFileEdit,
  applyFileEdit,
  replaceInText,
  UNKNOWN_CONTENT,
  FILE_EDIT_TOOLS,
  type FileEdit,
  type FileContent,
  type UnknownContent,
  type BeforeSource,
  type FileEditTool,
  type StringReplacement,
  type ToolUseRef,
} from './file-edits';
export { toolEffect, isReadOnlyCommand, type ToolEffect } from './tool-effects';
export { readSessionEffects, type ReadRaw, type MayWriteReason } from './session-effects';
export {
  reconstructSession,
  type Reconstruction,
  type NodeFileState,
  type FileUnknownSince,
  type FileUnknownReason,
  type FileChange,
  type StateKnown,
  type ReconstructionProblem,
  type ReconstructionProblemKind,
  type ReconstructionStats,
  type ReconstructOptions,
} from './reconstruct-session';
export { FILE_HISTORY_RECORDS, type FileHistorySource, type AttachedLine, type CheckpointObservation } from './checkpoints';
