/** Structural checks on generated Claude Code transcripts, shared by the synthetic and demo tests. */
import { expect } from 'vitest';

export type Line = Record<string, unknown> & { type: string; uuid?: string; parentUuid?: string | null };

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Parses every line (each must be a JSON object) and checks the DAG invariants of one file. */
export function parseTranscript(lines: readonly string[]): Line[] {
  const parsed = lines.map((text, i) => {
    expect(text.includes('\n'), `line ${i + 1} has a newline`).toBe(false);
    const value: unknown = JSON.parse(text);
    expect(typeof value === 'object' && value !== null && !Array.isArray(value), `line ${i + 1} is an object`).toBe(true);
    return value as Line;
  });
  const seen = new Set<string>();
  for (const [i, line] of parsed.entries()) {
    if (typeof line.uuid !== 'string') continue;
    expect(seen.has(line.uuid), `duplicate uuid on line ${i + 1}`).toBe(false);
    const parent = line.parentUuid;
    if (parent !== null) expect(seen.has(String(parent)), `line ${i + 1}: parent ${String(parent)} is not an earlier line`).toBe(true);
    seen.add(line.uuid);
  }
  return parsed;
}

export function content(line: Line): unknown {
  return (line.message as { content?: unknown } | undefined)?.content;
}

export function blocks(line: Line): Record<string, unknown>[] {
  const c = content(line);
  return Array.isArray(c) ? (c as Record<string, unknown>[]) : [];
}

export function isPrompt(line: Line): boolean {
  return line.type === 'user' && typeof content(line) === 'string' && line.isCompactSummary !== true;
}

/** Real forks: a parent with ≥2 typed prompt children that have different timestamps (FORMATS.md §1.5). */
export function realForks(lines: readonly Line[]): string[] {
  const byParent = new Map<string, Line[]>();
  for (const line of lines) {
    if (!isPrompt(line) || typeof line.parentUuid !== 'string') continue;
    byParent.set(line.parentUuid, [...(byParent.get(line.parentUuid) ?? []), line]);
  }
  return [...byParent].filter(([, children]) => new Set(children.map((c) => c.timestamp)).size >= 2).map(([parent]) => parent);
}

/** Applies jsdiff-style hunks to `text` (independent of the generator's own diff code). */
export function applyHunks(text: string, hunks: readonly Hunk[]): string {
  const endsWithNewline = text === '' || text.endsWith('\n');
  const lines = text === '' ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  let newEndsWithNewline = endsWithNewline;
  let delta = 0;
  for (const hunk of hunks) {
    const at = (hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1) + delta;
    const removed: string[] = [];
    const added: string[] = [];
    let previous = '';
    for (const l of hunk.lines) {
      if (l.startsWith('\\')) {
        if (previous === '+' || previous === ' ') newEndsWithNewline = false;
        continue;
      }
      previous = l[0] ?? '';
      if (l[0] === ' ' || l[0] === '-') removed.push(l.slice(1));
      if (l[0] === ' ' || l[0] === '+') added.push(l.slice(1));
    }
    expect(lines.slice(at, at + removed.length), 'hunk context matches the file').toEqual(removed);
    lines.splice(at, removed.length, ...added);
    delta += added.length - removed.length;
  }
  if (lines.length === 0) return '';
  return lines.join('\n') + (newEndsWithNewline ? '\n' : '');
}
