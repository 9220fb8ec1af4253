/**
 * Writes merge regions back to text, in git's conflict-marker format, applying per-conflict
 * resolutions. Pure: the merge view calls it on every resolution change.
 */
import { assertNever } from '../errors';
import { endsWithNewline } from './lines';
import type { ConflictRegion, ConflictResolution, ConflictResolutions, LineEnding, MergeLabels, MergeRegion, RenderOptions } from './types';

export const DEFAULT_MARKER_SIZE = 7;

const DEFAULT_LABELS = { ours: 'ours', base: 'base', theirs: 'theirs' } as const;

function label(labels: MergeLabels | undefined, which: keyof MergeLabels): string | null {
  const given = labels?.[which];
  return given === undefined ? DEFAULT_LABELS[which] : given;
}

function marker(char: string, size: number, name: string | null, eol: LineEnding): string {
  return char.repeat(size) + (name === null ? '' : ` ${name}`) + eol;
}

/** Appends lines; with `closeLine`, ends a last line that lacks a terminator (git's add_nl). */
function pushLines(out: string[], lines: readonly string[], closeLine: boolean, eol: LineEnding): void {
  for (const line of lines) out.push(line);
  const last = lines[lines.length - 1];
  if (closeLine && last !== undefined && !endsWithNewline(last)) out.push(eol);
}

/** Appends a conflict with its markers (also used by mergeText, which writes its text as it plans). */
export function pushConflict(out: string[], region: ConflictRegion, options: RenderOptions): void {
  const size = options.markerSize !== undefined && options.markerSize > 0 ? options.markerSize : DEFAULT_MARKER_SIZE;
  const style = options.style ?? 'merge';
  const { eol } = region;
  out.push(marker('<', size, label(options.labels, 'ours'), eol));
  pushLines(out, region.ours, true, eol);
  if (style === 'diff3' || style === 'zdiff3') {
    out.push(marker('|', size, label(options.labels, 'base'), eol));
    pushLines(out, region.base, true, eol);
  }
  out.push(marker('=', size, null, eol));
  pushLines(out, region.theirs, true, eol);
  out.push(marker('>', size, label(options.labels, 'theirs'), eol));
}

function pushResolved(out: string[], region: ConflictRegion, resolution: ConflictResolution): void {
  switch (resolution.kind) {
    case 'ours':
      pushLines(out, region.ours, false, region.eol);
      return;
    case 'theirs':
      pushLines(out, region.theirs, false, region.eol);
      return;
    case 'base':
      pushLines(out, region.base, false, region.eol);
      return;
    case 'both':
      // Like git's --union: ours must end its last line before theirs follows.
      pushLines(out, region.ours, true, region.eol);
      pushLines(out, region.theirs, false, region.eol);
      return;
    case 'edit':
      pushLines(out, resolution.lines, false, region.eol);
      return;
    default:
      assertNever(resolution);
  }
}

/**
 * Text of the regions with the given resolutions applied; `conflicts` counts the conflicts still
 * written with markers.
 */
export function renderRegions(
  regions: readonly MergeRegion[],
  resolutions: ConflictResolutions = [],
  options: RenderOptions = {},
): { readonly text: string; readonly conflicts: number } {
  const out: string[] = [];
  let ordinal = 0;
  let conflicts = 0;
  for (const region of regions) {
    if (region.kind === 'clean') {
      pushLines(out, region.lines, false, '\n');
      continue;
    }
    const resolution = resolutions[ordinal++];
    if (resolution) {
      pushResolved(out, region, resolution);
    } else {
      pushConflict(out, region, options);
      conflicts++;
    }
  }
  return { text: out.join(''), conflicts };
}
