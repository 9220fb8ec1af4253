/**
 * Codex's `apply_patch` envelope (FORMATS.md §2.2), read as Codex's own parser reads it (lenient mode):
 *
 *   *** Begin Patch
 *   *** Add File: <path>          then `+` lines: the whole new file
 *   *** Delete File: <path>
 *   *** Update File: <path>       optionally `*** Move to: <path>`, then hunks: `@@` or `@@ <context line>`,
 *                                 ` `/`-`/`+` lines (an empty line is an empty context line), `*** End of File`
 *   *** End Patch
 *
 * A heredoc wrapper (`<<'EOF'` … `EOF`) around the envelope is dropped. A patch that does not parse gives
 * null: the caller cannot tell what it changed.
 */
import type { ContextHunk } from '../transcript';

export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo: string | null; readonly hunks: readonly ContextHunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/** The operations of a patch, in order; null when the text is not a well-formed envelope. */
export function parseApplyPatch(text: string): PatchOperation[] | null {
  let lines = text.trim().split('\n').map((line) => line.replace(/\r$/, ''));
  const first = lines[0]?.trim() ?? '';
  if (/^<<['"]?\w+['"]?$/.test(first) && lines.length >= 2 && /^\w+$/.test(lines[lines.length - 1]!.trim())) lines = lines.slice(1, -1);
  if (lines[0]?.trim() !== BEGIN || lines[lines.length - 1]?.trim() !== END) return null;
  const body = lines.slice(1, -1);
  const operations: PatchOperation[] = [];
  let i = 0;
  while (i < body.length) {
    const line = body[i]!.trim();
    if (line === '') {
      i++;
      continue;
    }
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      let content = '';
      i++;
      while (i < body.length && body[i]!.startsWith('+')) content += `${body[i++]!.slice(1)}\n`;
      operations.push({ kind: 'add', path, content });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | null = null;
      if (i < body.length && body[i]!.startsWith(MOVE)) moveTo = body[i++]!.slice(MOVE.length).trim();
      const hunks: ContextHunk[] = [];
      while (i < body.length) {
        if (body[i]!.trim() === '') {
          i++;
          continue;
        }
        if (body[i]!.startsWith('***')) break;
        const read = readHunk(body, i, hunks.length === 0);
        if (read === null) return null;
        hunks.push(read.hunk);
        i = read.next;
      }
      if (hunks.length === 0) return null; // Codex refuses an empty update
      operations.push({ kind: 'update', path, moveTo, hunks });
    } else {
      return null;
    }
  }
  return operations;
}

/** One hunk from `start`: its `@@` header (optional for a file's first hunk) and its lines. */
function readHunk(lines: readonly string[], start: number, first: boolean): { hunk: ContextHunk; next: number } | null {
  let i = start;
  let context: string | null = null;
  const header = lines[i]!;
  if (header === '@@') i++;
  else if (header.startsWith('@@ ')) {
    context = header.slice(3);
    i++;
  } else if (!first) return null;
  const oldLines: string[] = [];
  const newLines: string[] = [];
  let endOfFile = false;
  let read = 0;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === END_OF_FILE) {
      endOfFile = true;
      i++;
      break;
    }
    const marker = line.charAt(0);
    if (marker === '') {
      oldLines.push('');
      newLines.push('');
    } else if (marker === ' ') {
      oldLines.push(line.slice(1));
      newLines.push(line.slice(1));
    } else if (marker === '-') {
      oldLines.push(line.slice(1));
    } else if (marker === '+') {
      newLines.push(line.slice(1));
    } else {
      if (read === 0) return null;
      break;
    }
    read++;
  }
  if (read === 0 && !endOfFile) return null;
  return { hunk: { context, oldLines, newLines, endOfFile }, next: i };
}

/**
 * The envelope inside a shell command that runs apply_patch (`apply_patch "<patch>"`, a heredoc
 * `apply_patch <<'EOF' … EOF`, either after `cd <dir> &&`), with that directory; null when the command does
 * not run apply_patch.
 */
export function patchInCommand(command: string): { readonly patch: string; readonly cd: string | null } | null {
  const begin = command.indexOf(BEGIN);
  const end = command.lastIndexOf(END);
  if (begin < 0 || end < begin) return null;
  const head = command.slice(0, begin);
  const invocation = /^\s*(?:cd\s+("[^"]*"|'[^']*'|\S+)\s*&&\s*)?(?:apply_patch|applypatch)\b\s*(?:<<-?\s*['"]?\w+['"]?\s*\n|["']?\s*)$/.exec(head);
  if (invocation === null) return null;
  const cd = invocation[1] === undefined ? null : invocation[1].replace(/^["']|["']$/g, '');
  return { patch: command.slice(begin, end + END.length), cd };
}
