/**
 * A line that repeats a stored node's uuid is usually a copy (a resume or fork replays the conversation
 * into another file, FORMATS.md §1.5 fact 3): the store keeps the first and the copy adds nothing. When the
 * copy says something else (other content, another parent), dropping it would lose a line, so it is kept as
 * a `variant` record of that node, with its raw bytes, and reported (issue 13, "every line accounted for").
 */
import type { ImportProblem } from '../../shared/model';
import type { ParsedNode } from '../importers/transcript';
import type { WritableDB } from './database';
import { prepareRawLineReader, rawColumns, type StoredRawColumns } from './raw-line-reader';

/** The record type a variant is kept under, beside the node whose uuid it repeats. */
export const VARIANT_RECORD = 'variant';

/**
 * Envelope fields a copy rewrites without changing what the line says: the new file's session, folder and
 * version, the parent where a fork's copy moved a line or dropped a neighbour (electron/forks), and the uuid
 * of a `/branch` copy written under a new uuid (lineage.ts stores it as the original it names in `forkedFrom`).
 */
const COPY_FIELDS = new Set(['uuid', 'sessionId', 'parentUuid', 'cwd', 'version', 'gitBranch', 'slug', 'userType', 'entrypoint', 'teamName', 'forkedFrom', 'isSidechain', 'agentId']);

export function prepareVariantStatements(db: WritableDB) {
  return {
    storedLine: db.prepare<[string], StoredRawColumns & { file_id: number; offset: number; raw_bytes: number; path: string; line: number }>(
      `SELECT n.file_id, n.offset, ${rawColumns('n')}, n.raw_bytes, f.path, n.line FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.id = ?`,
    ),
    // Read inside the import's transaction: nothing it reads may be kept past it (raw-line-reader.ts).
    lines: prepareRawLineReader(db, { cachedBlocks: 0 }),
  };
}
export type VariantStatements = ReturnType<typeof prepareVariantStatements>;

/**
 * The problem to report when `node` (not stored: its uuid was) differs from the stored line in more than a
 * copy's envelope; null when it is a copy, or the same line read again. `unwritten` hands out a line stored
 * earlier in the same batch whose block is not written yet (raw-blocks.ts).
 */
export function variantProblem(
  s: VariantStatements,
  node: ParsedNode,
  fileId: number,
  file: string,
  unwritten: (row: StoredRawColumns) => Buffer | undefined = () => undefined,
): ImportProblem | null {
  const row = s.storedLine.get(node.sourceId);
  if (row === undefined) return null;
  const stored = { ...row, raw: unwritten(row) ?? s.lines.line(row) };
  if (stored.file_id === fileId && stored.offset === node.offset) return null; // the same line, read again
  if (stored.raw.equals(node.raw)) return null;
  // A line cut at the store's limit cannot be compared as JSON: only its length tells.
  const cut = stored.raw_bytes > stored.raw.length || node.rawBytes > node.raw.length;
  if (cut ? stored.raw_bytes === node.rawBytes : sameContent(stored.raw, node.raw)) return null;
  return {
    file,
    line: node.line,
    reason: `uuid ${node.sourceId} repeats with different content (first at ${stored.path}:${stored.line}): kept as a variant of that node`,
  };
}

function sameContent(a: Buffer, b: Buffer): boolean {
  const left = parseLine(a);
  const right = parseLine(b);
  if (left === null || right === null) return false;
  // Either line's folder, wherever it appears: a fork's copy moves some of the workspace's paths, not all.
  const folders = [left.cwd, right.cwd].filter((cwd): cwd is string => typeof cwd === 'string' && cwd.length > 1);
  return contentOf(left, folders) === contentOf(right, folders);
}

function parseLine(raw: Buffer): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * The line without the fields a copy rewrites, keys sorted (a copy may write them in another order), with the
 * folders written as a placeholder: a fork's copy moves the workspace's paths into the fork's folder.
 */
function contentOf(line: Record<string, unknown>, folders: readonly string[]): string {
  let text = stableJson(Object.fromEntries(Object.entries(line).filter(([key]) => !COPY_FIELDS.has(key))));
  // Longest first, so a folder inside the other is not half replaced.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) text = text.split(JSON.stringify(folder).slice(1, -1)).join('\u0000folder');
  return text;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
