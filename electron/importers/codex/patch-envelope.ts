/**
 * Codex's `apply_patch` text (FORMATS.md §2.2) read as per-file changes for display: `*** Add File`,
 * `*** Update File` (+ `*** Move to`), `*** Delete File`, `@@` hunks of space/-/+ lines. The same envelope
 * arrives as a custom tool call's input, inside a shell argv (`["apply_patch", "…"]`, or a heredoc in
 * `bash -lc`), and as a file-change item's unified diffs; all three read into one PatchFileChange[].
 */
import type { PatchFileChange } from '../../../shared/model';
import { isObject, type JsonObject } from '../claude-code/json-shape';

type PatchLine = PatchFileChange['lines'][number];

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';

/** The envelope inside a text (a heredoc, an argv element), or null when it holds none. */
export function findPatchEnvelope(text: string): string | null {
  const start = text.indexOf(BEGIN);
  if (start === -1) return null;
  const end = text.indexOf(END, start);
  return end === -1 ? text.slice(start) : text.slice(start, end + END.length);
}

/** The files an envelope changes, in its order; an envelope without file headers gives none. */
export function parsePatchEnvelope(patch: string): PatchFileChange[] {
  const files: { action: PatchFileChange['action']; path: string; movePath: string | null; lines: PatchLine[] }[] = [];
  let current: (typeof files)[number] | null = null;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header !== null) {
      const verb = header[1];
      current = { action: verb === 'Add' ? 'add' : verb === 'Delete' ? 'delete' : 'update', path: (header[2] ?? '').trim(), movePath: null, lines: [] };
      files.push(current);
      continue;
    }
    if (current === null) continue;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move !== null) {
      current.action = 'move';
      current.movePath = (move[1] ?? '').trim();
      continue;
    }
    if (line.startsWith('***')) continue; // End Patch, End of File
    const diffLine = readDiffLine(line, current.action === 'add');
    if (diffLine !== null) current.lines.push(diffLine);
  }
  return files;
}

/** A file-change item's or `patch_apply_end`'s changes: `[{path, kind, diff}]` or `{path: {type, unified_diff, move_path}}`. */
export function readFileChanges(changes: unknown): PatchFileChange[] {
  const entries: JsonObject[] = Array.isArray(changes)
    ? changes.filter(isObject)
    : isObject(changes)
      ? Object.entries(changes).map(([path, change]) => ({ path, ...(isObject(change) ? change : {}) }))
      : [];
  return entries.map((change) => {
    const kind = isObject(change.kind) ? change.kind : null;
    const verb = String(kind?.type ?? change.kind ?? change.type ?? '').toLowerCase();
    const movePath = stringOf(change.move_path) ?? stringOf(change.movePath) ?? stringOf(kind?.move_path) ?? stringOf(kind?.movePath);
    const action: PatchFileChange['action'] = movePath !== null ? 'move' : verb.includes('add') ? 'add' : verb.includes('delete') ? 'delete' : 'update';
    const diff = stringOf(change.unified_diff) ?? stringOf(change.diff) ?? stringOf(change.content) ?? '';
    const lines = diff
      .split('\n')
      .filter((line, i, all) => !(line === '' && i === all.length - 1))
      .flatMap((line) => {
        if (line.startsWith('---') || line.startsWith('+++')) return [];
        const read = readDiffLine(line, action === 'add' && !diff.startsWith('@@') && !/^[-+ ]/.test(diff));
        return read === null ? [] : [read];
      });
    return { action, path: stringOf(change.path) ?? '', movePath, lines };
  });
}

/** An added file's content may come unmarked (a change item's `content`): every line is then added. */
function readDiffLine(line: string, unmarkedIsAdded: boolean): PatchLine | null {
  if (line.startsWith('@@')) return { kind: 'hunk', text: line.replace(/^@@\s?/, '') };
  if (line.startsWith('+')) return { kind: 'added', text: line.slice(1) };
  if (line.startsWith('-')) return { kind: 'removed', text: line.slice(1) };
  if (line.startsWith(' ')) return { kind: 'same', text: line.slice(1) };
  if (unmarkedIsAdded) return { kind: 'added', text: line };
  return line === '' ? { kind: 'same', text: '' } : null;
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
