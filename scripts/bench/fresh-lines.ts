/** Transcript lines made new again, for benchmarks that append the same held-back lines more than once. */
import { randomBytes, randomUUID } from 'node:crypto';

/** The lines with every id they define replaced (uuids, tool-use, message and request ids), so they add new nodes, calls and replies. */
export function freshLines(text: string): string {
  const ids = new Set<string>();
  for (const match of text.matchAll(/"uuid":"([^"]+)"/g)) ids.add(match[1]!);
  for (const match of text.matchAll(/\b(?:toolu|msg|req)_[A-Za-z0-9]+/g)) ids.add(match[0]);
  let fresh = text;
  for (const id of ids) {
    const other = id.includes('_') ? `${id.slice(0, id.indexOf('_') + 1)}${randomBytes(12).toString('hex')}` : randomUUID();
    fresh = fresh.split(id).join(other);
  }
  return fresh;
}
