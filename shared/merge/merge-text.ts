/**
 * Three-way text merge that matches `git merge-file` (xdiff's xdl_merge at the ZEALOUS_ALNUM
 * level): same conflicts, same markers, same handling of CRLF and missing final newlines.
 * Pure and synchronous, so the merge view can re-merge while the user types.
 */
import { diffIds } from './diff';
import type { LineText } from './lines';
import { DiffScratch } from './myers';
import { EntryMode, MergeLevel, type MergeFiles, type PlanEntry, planMerge, refineConflicts, simplifyNonConflicts, trimConflictEdges } from './plan';
import { pushConflict } from './render';
import { internSides } from './sides';
import type { ConflictRegion, LineEnding, MergeFavor, MergeRegion, MergeTextOptions, MergeTextResult } from './types';

/** 1 when line i ends in CRLF, 0 for LF, -1 when it cannot tell (git's is_eol_crlf). */
function eolIsCrlf(lines: LineText, i: number): -1 | 0 | 1 {
  const { text, ends } = lines;
  const crlf = (line: number): 0 | 1 => {
    const end = ends[line] as number;
    return end - lines.start(line) > 1 && text.charCodeAt(end - 2) === 13 ? 1 : 0;
  };
  const n = lines.count;
  if (i < n - 1) return crlf(i);
  if (n === 0) return -1;
  const end = ends[i] as number;
  if (end > lines.start(i) && text.charCodeAt(end - 1) === 10) return crlf(i);
  if (i === 0) return -1;
  return crlf(i - 1);
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

/**
 * Turns the plan into regions, copying untouched stretches from ours (xdl_fill_merge_buffer), and
 * writes the text as it goes: a stretch of lines is one slice of its file, not a string per line.
 * The text is what renderRegions(regions, [], options) would write.
 */
function planToRegions(files: MergeFiles, plan: readonly PlanEntry[], options: MergeTextOptions): { regions: MergeRegion[]; text: string; conflicts: number } {
  const regions: MergeRegion[] = [];
  const pieces: string[] = [];
  let conflicts = 0;
  let clean: string[] = [];
  const { oursLines, theirsLines, baseLines } = files;
  const takeClean = (lines: LineText, start: number, end: number): void => {
    if (end <= start) return;
    for (let i = start; i < end; i++) clean.push(lines.line(i));
    pieces.push(lines.text.slice(lines.start(start), lines.start(end)));
  };
  const flushClean = (): void => {
    if (clean.length > 0) regions.push({ kind: 'clean', lines: clean });
    clean = [];
  };
  const forced = favorMode(options.favor);
  let i = 0;
  for (const m of plan) {
    const mode = m.mode === EntryMode.Conflict ? forced : m.mode;
    if (mode === EntryMode.Conflict) {
      takeClean(oursLines, i, m.oursStart);
      flushClean();
      const conflict: ConflictRegion = {
        kind: 'conflict',
        ours: oursLines.lines(m.oursStart, m.oursStart + m.oursCount),
        base: baseLines.lines(m.baseStart, m.baseStart + m.baseCount),
        theirs: theirsLines.lines(m.theirsStart, m.theirsStart + m.theirsCount),
        eol: conflictEol(files, m),
        at: { ours: m.oursStart, base: m.baseStart, theirs: m.theirsStart },
      };
      regions.push(conflict);
      pushConflict(pieces, conflict, options);
      conflicts++;
    } else if (mode & 3) {
      takeClean(oursLines, i, m.oursStart);
      if (mode & 1) {
        takeClean(oursLines, m.oursStart, m.oursStart + m.oursCount);
        const last = clean[clean.length - 1];
        // Union: ours must end its last line before theirs follows.
        if (mode & 2 && m.oursCount > 0 && last !== undefined && !last.endsWith('\n')) {
          const eol = conflictEol(files, m);
          clean.push(eol);
          pieces.push(eol);
        }
      }
      if (mode & 2) takeClean(theirsLines, m.theirsStart, m.theirsStart + m.theirsCount);
    } else {
      continue;
    }
    i = m.oursStart + m.oursCount;
  }
  takeClean(oursLines, i, oursLines.count);
  flushClean();
  return { regions, text: pieces.join(''), conflicts };
}

function wholeFile(lines: LineText): MergeRegion[] {
  return lines.count > 0 ? [{ kind: 'clean', lines: lines.lines(0) }] : [];
}

/** Merges the changes base→ours and base→theirs; conflicts are results, not errors. */
export function mergeText(base: string, ours: string, theirs: string, options: MergeTextOptions = {}): MergeTextResult {
  const style = options.style ?? 'merge';
  const sides = internSides(base, ours, theirs);
  const theirsLines = sides.theirs;
  const oursLines = sides.ours;
  const files: MergeFiles = {
    baseLines: sides.base,
    oursLines,
    theirsLines,
    base: sides.baseIds,
    ours: sides.oursIds,
    theirs: sides.theirsIds,
    classes: sides.classes,
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
  const { regions, text, conflicts } = planToRegions(files, plan, options);
  return { text, conflicts, regions, changes };
}
