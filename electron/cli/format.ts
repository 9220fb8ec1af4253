/** Plain-text formatting shared by the CLI commands. */
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../shared/model';

/** `2026-11-29 15:04` in UTC (stable across machines and in tests), or `-` when unknown. */
export function formatDate(iso: string | null): string {
  if (iso === null) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '-';
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

/** Cuts to `max` characters on one line, marking the cut with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Columns padded to their widest cell; columns named in `right` are right-aligned (numbers). */
export function table(header: readonly string[], rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        const isLast = column === cells.length - 1;
        if (right.includes(column)) return cell.padStart(width);
        return isLast ? cell : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/**
 * The shortest prefix length (at least `min`) that tells every id apart, like git's abbreviated hashes.
 * Sorting first means only neighbours need comparing.
 */
export function uniquePrefixLength(ids: readonly string[], min = 8): number {
  const sorted = [...ids].sort();
  let length = min;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as string;
    const b = sorted[i] as string;
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    length = Math.max(length, common + 1);
  }
  return length;
}

/** Search snippets mark matches with private-use characters; show them as «…» in a terminal. */
export function markSnippet(snippet: string): string {
  return snippet.split(SNIPPET_OPEN).join('«').split(SNIPPET_CLOSE).join('»');
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
