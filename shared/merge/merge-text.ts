/**
 * Three-way text merge that matches `git merge-file` (xdiff's xdl_merge at the ZEALOUS_ALNUM
 * level): same conflicts, same markers, same handling of CRLF and missing final newlines.
 * Pure and synchronous, so the merge view can re-merge while the user types.
 */
import { diffIds } from './diff';
import { LineInterner, splitLines } from './lines';
import { DiffScratch } from './myers';
import { EntryMode, MergeLevel, type MergeFiles, type PlanEntry, planMerge, refineConflicts, simplifyNonConflicts, trimConflictEdges } from './plan';
import { renderRegions } from './render';
import type { LineEnding, MergeFavor, MergeRegion, MergeTextOptions, MergeTextResult } from './types';

/** 1 when line i ends in CRLF, 0 for LF, -1 when it cannot tell (git's is_eol_crlf). */
function eolIsCrlf(lines: readonly string[], i: number): -1 | 0 | 1 {
  const crlf = (line: string): 0 | 1 => (line.length > 1 && line.charCodeAt(line.length - 2) === 13 ? 1 : 0);
  const n = lines.length;
  if (i < n - 1) return crlf(lines[i] as string);
  if (n === 0) return -1;
  const last = lines[i] as string;
  if (last.length > 0 && last.charCodeAt(last.length - 1) === 10) return crlf(last);
  if (i === 0) return -1;
  return crlf(lines[i - 1] as string);
}

/** Markers follow the line endings around the conflict in both sides, then the base's first line. */
function conflictEol(files: MergeFiles, m: PlanEntry): LineEnding {
  let needsCr: number = eolIsCrlf(files.oursLines, m.oursStart ? m.oursStart - 1 : 0);
  if (needsCr) needsCr = eolIsCrlf(files.theirsLines, m.theirsStart ? m.theirsStart - 1 : 0);
  if (needsCr) needsCr = eolIsCrlf(files.baseLines, 0);
  return needsCr === 1 ? '\r\n' : '\n';
}

function favorMode(favor: MergeFavor | undefined): EntryMode {
  switch (favor) {
    case undefined:
      return EntryMode.Conflict;
    case 'ours':
      return EntryMode.Ours;
    case 'theirs':
      return EntryMode.Theirs;
    case 'union':
      return EntryMode.Both;
  }
}

/** Turns the plan into regions, copying untouched stretches from ours (xdl_fill_merge_buffer). */
function planToRegions(files: MergeFiles, plan: readonly PlanEntry[], favor: MergeFavor | undefined): MergeRegion[] {
  const regions: MergeRegion[] = [];
  let clean: string[] = [];
  const { oursLines, theirsLines, baseLines } = files;
  const takeClean = (lines: readonly string[], start: number, end: number): void => {
    for (let i = start; i < end; i++) clean.push(lines[i] as string);
  };
  const flushClean = (): void => {
    if (clean.length > 0) regions.push({ kind: 'clean', lines: clean });
    clean = [];
  };
  const forced = favorMode(favor);
  let i = 0;
  for (const m of plan) {
    const mode = m.mode === EntryMode.Conflict ? forced : m.mode;
    if (mode === EntryMode.Conflict) {
      takeClean(oursLines, i, m.oursStart);
      flushClean();
      regions.push({
        kind: 'conflict',
        ours: oursLines.slice(m.oursStart, m.oursStart + m.oursCount),
        base: baseLines.slice(m.baseStart, m.baseStart + m.baseCount),
        theirs: theirsLines.slice(m.theirsStart, m.theirsStart + m.theirsCount),
        eol: conflictEol(files, m),
        at: { ours: m.oursStart, base: m.baseStart, theirs: m.theirsStart },
      });
    } else if (mode & 3) {
      takeClean(oursLines, i, m.oursStart);
      if (mode & 1) {
        takeClean(oursLines, m.oursStart, m.oursStart + m.oursCount);
        const last = clean[clean.length - 1];
        // Union: ours must end its last line before theirs follows.
        if (mode & 2 && m.oursCount > 0 && last !== undefined && !last.endsWith('\n')) clean.push(conflictEol(files, m));
      }
      if (mode & 2) takeClean(theirsLines, m.theirsStart, m.theirsStart + m.theirsCount);
    } else {
      continue;
    }
    i = m.oursStart + m.oursCount;
  }
  takeClean(oursLines, i, oursLines.length);
  flushClean();
  return regions;
}

function wholeFile(lines: readonly string[]): MergeRegion[] {
  return lines.length > 0 ? [{ kind: 'clean', lines }] : [];
}

/** Merges the changes base→ours and base→theirs; conflicts are results, not errors. */
export function mergeText(base: string, ours: string, theirs: string, options: MergeTextOptions = {}): MergeTextResult {
  const style = options.style ?? 'merge';
  const interner = new LineInterner();
  const baseLines = splitLines(base);
  const oursLines = splitLines(ours);
  const theirsLines = splitLines(theirs);
  const files: MergeFiles = {
    baseLines,
    oursLines,
    theirsLines,
    base: interner.intern(baseLines),
    ours: interner.intern(oursLines),
    theirs: interner.intern(theirsLines),
    classes: interner.size,
    scratch: new DiffScratch(),
  };
  const oursHunks = diffIds(files.base, files.ours, files.classes, files.scratch);
  const theirsHunks = diffIds(files.base, files.theirs, files.classes, files.scratch);
  // When one side changed nothing, the result is the other side byte for byte.
  const changes = { ours: oursHunks, theirs: theirsHunks };
  if (oursHunks.length === 0) return { text: theirs, conflicts: 0, regions: wholeFile(theirsLines), changes };
  if (theirsHunks.length === 0) return { text: ours, conflicts: 0, regions: wholeFile(oursLines), changes };

  // Showing the base only makes sense when conflicts are not narrowed against it.
  const level = style === 'merge' ? MergeLevel.ZealousAlnum : MergeLevel.Eager;
  let plan = planMerge(files, oursHunks, theirsHunks, level);
  if (style === 'zdiff3') {
    trimConflictEdges(files, plan);
  } else if (level >= MergeLevel.Zealous) {
    plan = simplifyNonConflicts(files, refineConflicts(files, plan), level > MergeLevel.Zealous);
  }
  const regions = planToRegions(files, plan, options.favor);
  const { text, conflicts } = renderRegions(regions, [], options);
  return { text, conflicts, regions, changes };
}
