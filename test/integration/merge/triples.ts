/**
 * Merge triples (base, ours, theirs) for the differential test against `git merge-file`:
 * generated ones that stress the hard cases (repeated lines, edits close together, missing final
 * newlines, empty files, CRLF) and "real" ones made by applying realistic edits to real source
 * files taken from node_modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mulberry32 } from '../../../shared/random';

export interface MergeTriple {
  readonly name: string;
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
}


type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

// Few distinct lines, so the diff has many equally good alignments to choose from.
const VOCABULARY = ['}', '}', '', '', '', '  }', '{', '  return null;', '  i++;', 'else {', '// note', '  break;', ')', '  x = 1;', 'end'];

function codeLine(random: Random, serial: () => number): string {
  if (random() < 0.7) return pick(random, VOCABULARY);
  return pick(random, ['function f', '  const v', '  call(', 'if (x', '  let y']) + serial() + (random() < 0.5 ? ' {' : ';');
}

function splitKeep(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** One random local edit of a list of lines (without terminators). */
function editLines(random: Random, lines: string[], near: number | null, serial: () => number): number {
  const at = near === null ? int(random, 0, lines.length) : Math.max(0, Math.min(lines.length, near + int(random, -3, 3)));
  const kind = random();
  if (kind < 0.3 && lines.length > 0) {
    const i = Math.min(at, lines.length - 1);
    lines[i] = codeLine(random, serial);
  } else if (kind < 0.55) {
    const count = int(random, 1, 4);
    const added = Array.from({ length: count }, () => codeLine(random, serial));
    lines.splice(at, 0, ...added);
  } else if (kind < 0.8 && lines.length > 0) {
    lines.splice(Math.min(at, lines.length - 1), int(random, 1, 3));
  } else {
    const count = int(random, 1, 3);
    lines.splice(at, Math.min(count, lines.length - at), ...Array.from({ length: count }, () => codeLine(random, serial)));
  }
  return at;
}

function joinLines(lines: readonly string[], finalNewline: boolean, eol: string): string {
  if (lines.length === 0) return '';
  return lines.join(eol) + (finalNewline ? eol : '');
}

/** Generated triples: small code-like files full of repeated lines, with edits on both sides. */
export function generatedTriples(count: number, seed = 1): MergeTriple[] {
  const random = mulberry32(seed);
  let counter = 0;
  const serial = (): number => ++counter;
  const triples: MergeTriple[] = [];
  for (let n = 0; n < count; n++) {
    const size = random() < 0.08 ? 0 : int(random, 1, 40);
    const baseLines = Array.from({ length: size }, () => codeLine(random, serial));
    const ours = [...baseLines];
    const theirs = [...baseLines];
    const oursEdits = random() < 0.05 ? 0 : int(random, 1, 4);
    let last: number | null = null;
    for (let e = 0; e < oursEdits; e++) last = editLines(random, ours, null, serial);
    const theirsEdits = int(random, 0, 4);
    const closeTogether = random() < 0.5;
    for (let e = 0; e < theirsEdits; e++) editLines(random, theirs, closeTogether ? last : null, serial);
    // Sometimes both sides make the same change too.
    if (random() < 0.15 && ours.length > 0) {
      const i = int(random, 0, ours.length - 1);
      const line = `same ${serial()}`;
      ours.splice(i, 0, line);
      theirs.splice(Math.min(i, theirs.length), 0, line);
    }
    if (random() < 0.1) theirs.length = random() < 0.5 ? 0 : theirs.length;
    const eol = random() < 0.1 ? '\r\n' : '\n';
    const baseFinal = random() < 0.85;
    const newline = (): boolean => (random() < 0.8 ? baseFinal : !baseFinal);
    triples.push({
      name: `generated-${n}`,
      base: joinLines(baseLines, baseFinal, eol),
      ours: joinLines(ours, newline(), eol),
      theirs: joinLines(theirs, newline(), eol),
    });
  }
  return triples;
}

/** Real source files (found in node_modules) that the real triples are cut from. */
const SOURCE_FILES = [
  'typescript/lib/lib.dom.d.ts',
  'typescript/lib/lib.es5.d.ts',
  'react/cjs/react.development.js',
  'react-dom/cjs/react-dom-client.development.js',
  '@xyflow/system/dist/esm/index.js',
  'ws/lib/websocket.js',
  'isomorphic-git/index.cjs',
  'd3-hierarchy/dist/d3-hierarchy.js',
  'eslint/lib/linter/linter.js',
  'typescript/lib/typescript.js',
];

export function realSourceTexts(repoRoot: string): { readonly name: string; readonly lines: readonly string[] }[] {
  const out: { name: string; lines: string[] }[] = [];
  for (const file of SOURCE_FILES) {
    const path = resolve(repoRoot, 'node_modules', file);
    if (!existsSync(path)) continue;
    const lines = splitKeep(readFileSync(path, 'utf8')).map((l) => l.replace(/\n$/, ''));
    if (lines.length > 200) out.push({ name: file, lines });
  }
  return out;
}

/** Realistic edits to real code: tweak a line, add/remove a block, copy a block, swap lines. */
function realisticEdit(random: Random, lines: string[], source: readonly string[], near: number | null, serial: () => number): number {
  const at = near === null ? int(random, 0, Math.max(0, lines.length - 1)) : Math.max(0, Math.min(lines.length - 1, near + int(random, -8, 8)));
  const kind = random();
  if (kind < 0.35 && lines.length > 0) {
    const line = lines[at] ?? '';
    lines[at] = /\w+/.test(line) && random() < 0.6 ? line.replace(/\w+/, (w) => `${w}${serial()}`) : `${line} // changed ${serial()}`;
  } else if (kind < 0.55) {
    const from = int(random, 0, Math.max(0, source.length - 12));
    lines.splice(at, 0, ...source.slice(from, from + int(random, 1, 10)));
  } else if (kind < 0.75) {
    lines.splice(at, int(random, 1, 8));
  } else if (kind < 0.88) {
    const block = lines.slice(at, at + int(random, 2, 6));
    lines.splice(Math.min(lines.length, at + block.length), 0, ...block);
  } else if (at + 1 < lines.length) {
    const [first, second] = [lines[at] as string, lines[at + 1] as string];
    lines[at] = second;
    lines[at + 1] = first;
  }
  return at;
}

/** Real triples: windows of real files, edited independently on each side. */
export function realTriples(repoRoot: string, count: number, seed = 7): MergeTriple[] {
  const sources = realSourceTexts(repoRoot);
  if (sources.length === 0) return [];
  const random = mulberry32(seed);
  let counter = 0;
  const serial = (): number => ++counter;
  const triples: MergeTriple[] = [];
  for (let n = 0; n < count; n++) {
    const source = sources[n % sources.length] as { name: string; lines: readonly string[] };
    const length = int(random, 80, 600);
    const from = int(random, 0, Math.max(0, source.lines.length - length));
    const base = source.lines.slice(from, from + length);
    const ours = [...base];
    const theirs = [...base];
    let last: number | null = null;
    const oursEdits = int(random, 1, 8);
    for (let e = 0; e < oursEdits; e++) last = realisticEdit(random, ours, source.lines, null, serial);
    const closeTogether = random() < 0.4;
    const theirsEdits = int(random, 1, 8);
    for (let e = 0; e < theirsEdits; e++) realisticEdit(random, theirs, source.lines, closeTogether ? last : null, serial);
    triples.push({
      name: `real-${n}-${source.name}@${from}`,
      base: joinLines(base, true, '\n'),
      ours: joinLines(ours, true, '\n'),
      theirs: joinLines(theirs, true, '\n'),
    });
  }
  return triples;
}

/**
 * Large, heavily edited triples: these push the diff past xdiff's cost limit and through its
 * discarding of frequent lines, the heuristics that decide where conflicts fall in big merges.
 */
export function heavyTriples(count: number, seed = 11): MergeTriple[] {
  const random = mulberry32(seed);
  const vocabulary = ['}', '', '', '  }', '{', '  return null;', '  i++;', 'else {', '  break;'];
  const line = (): string => (random() < 0.75 ? pick(random, vocabulary) : `x${Math.floor(random() * 3000)}`);
  const edit = (source: readonly string[], edits: number): string[] => {
    const lines = [...source];
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(random() * lines.length);
      const kind = random();
      if (kind < 0.4) lines[at] = line();
      else if (kind < 0.7) lines.splice(at, 0, ...Array.from({ length: int(random, 1, 20) }, line));
      else lines.splice(at, int(random, 1, 20));
    }
    return lines;
  };
  const triples: MergeTriple[] = [];
  for (let n = 0; n < count; n++) {
    const base = Array.from({ length: int(random, 2000, 6000) }, line);
    triples.push({
      name: `heavy-${n}`,
      base: joinLines(base, true, '\n'),
      ours: joinLines(edit(base, int(random, 100, 1500)), true, '\n'),
      theirs: joinLines(edit(base, int(random, 10, 800)), true, '\n'),
    });
  }
  return triples;
}
