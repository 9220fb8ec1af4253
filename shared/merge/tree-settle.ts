/**
 * Settling a tree merge's conflicts by choosing a side (`arbor merge --ours/--theirs`, `conflictSide`):
 * a text conflict keeps both sides' clean changes and takes the chosen side only in the conflicting hunks
 * (like `git merge -X ours`); what cannot be mixed (binary, modify/delete, symlinks) takes the chosen
 * side's whole version; a mode conflict takes the chosen side's mode.
 */
import type { MergeSideName } from '../operations';
import { renderRegions } from './render';
import { encodeText } from './text-bytes';
import type { MergedContent, TreeMergeFile } from './tree-types';
import type { ConflictResolution, MergeRegion } from './types';

export function settleWithSide(file: TreeMergeFile, side: MergeSideName): MergedContent {
  if (file.entry.status !== 'conflicted') return file.result;
  const version = side === 'ours' ? file.ours : file.theirs;
  const { result, text } = file;
  switch (file.entry.conflict) {
    case 'content':
    case 'add/add': {
      if (text === undefined || result.kind !== 'text') break;
      const mode = file.mergedMode ?? version?.mode ?? result.mode;
      const rendered = renderRegions(text.regions, sideResolutions(text.regions, side));
      return { kind: 'text', bytes: encodeText(rendered.text, text.encoding), mode };
    }
    case 'mode': {
      if (version === null) break;
      if (result.kind === 'text') return { kind: 'text', bytes: result.bytes, mode: version.mode };
      if (result.kind === 'file') return { kind: 'file', file: { oid: result.file.oid, mode: version.mode } };
      break;
    }
    default:
      break;
  }
  return version === null ? { kind: 'deleted' } : { kind: 'file', file: version };
}

function sideResolutions(regions: readonly MergeRegion[], side: MergeSideName): ConflictResolution[] {
  const count = regions.filter((region) => region.kind === 'conflict').length;
  return Array.from({ length: count }, () => ({ kind: side }));
}
