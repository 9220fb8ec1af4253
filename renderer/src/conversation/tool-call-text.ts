/**
 * Pure helpers for drawing tool calls as compact rows: what a call is about in one line, an Edit's change
 * as +/- lines (a light static diff: no editor per row), and error text without its `<tool_use_error>` tags.
 */
import type { ToolCallShape } from '../../../shared/model';

export type DiffLineKind = 'same' | 'added' | 'removed';
export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

/** Past this many lines a side, the diff keeps the common head and tail and shows the middle as replaced. */
const LCS_MAX_LINES = 400;

/** The lines of `before` → `after`: common lines, removed ones, added ones (longest common subsequence). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Trailing newlines give an empty last line on both sides; it says nothing.
  if (a.at(-1) === '' && b.at(-1) === '') {
    a.pop();
    b.pop();
  }
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length > LCS_MAX_LINES || midB.length > LCS_MAX_LINES) {
    for (const text of midA) out.push({ kind: 'removed', text });
    for (const text of midB) out.push({ kind: 'added', text });
  } else out.push(...lcsDiff(midA, midB));
  for (const text of a.slice(a.length - tail)) out.push({ kind: 'same', text });
  return out;
}

function lcsDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // lengths[i * (m + 1) + j]: LCS of a[i..] and b[j..].
  const lengths = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] = a[i] === b[j] ? lengths[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lengths[(i + 1) * (m + 1) + j]!, lengths[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (j < m && (i === n || lengths[i * (m + 1) + j + 1]! >= lengths[(i + 1) * (m + 1) + j]!)) {
      out.push({ kind: 'added', text: b[j]! });
      j++;
    } else {
      out.push({ kind: 'removed', text: a[i]! });
      i++;
    }
  }
  // Within a change, removed lines read best before added ones.
  return regroup(out);
}

function regroup(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const drain = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'same') {
      drain();
      out.push(line);
    } else (line.kind === 'removed' ? removed : added).push(line);
  }
  drain();
  return out;
}

/** The text inside `<tool_use_error>…</tool_use_error>`, else the text as is: shown as text, never as markup. */
export function errorText(text: string): string {
  const match = /^\s*<tool_use_error>([\s\S]*?)<\/tool_use_error>\s*$/.exec(text);
  return match ? match[1]!.trim() : text;
}

const asRecord = (input: unknown): Record<string, unknown> => (typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {});
const asString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The file a call reads or writes, when it names one. */
export function callPath(input: unknown): string | null {
  const record = asRecord(input);
  return asString(record.file_path) ?? asString(record.path) ?? asString(record.notebook_path);
}

/** One line saying what the call is about: its file, command, pattern or description. */
export function callSubject(name: string, input: unknown): string {
  const record = asRecord(input);
  const path = callPath(input);
  if (name === 'Bash') return asString(record.description) ?? firstLine(asString(record.command) ?? '');
  if (path !== null) return path;
  const value = asString(record.description) ?? asString(record.pattern) ?? asString(record.query) ?? asString(record.url) ?? asString(record.prompt);
  return value === null ? '' : firstLine(value);
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** The edits of an Edit or MultiEdit call, as before/after pairs. */
export function editPairs(name: string, input: unknown): { before: string; after: string }[] {
  const record = asRecord(input);
  if (name === 'Edit') {
    const before = asString(record.old_string);
    const after = asString(record.new_string);
    return before !== null && after !== null ? [{ before, after }] : [];
  }
  if (name === 'MultiEdit' && Array.isArray(record.edits)) {
    return record.edits.flatMap((edit) => editPairs('Edit', edit));
  }
  return [];
}

/** The Read tool's result prefixes each line with its number and a tab or arrow; the code is what follows. */
export function readResultCode(text: string): { code: string; firstLine: number } | null {
  const lines = text.split('\n');
  const numbered = /^\s*(\d+)(?:→|\t)(.*)$/;
  const first = numbered.exec(lines[0] ?? '');
  if (!first) return null;
  const code: string[] = [];
  for (const line of lines) {
    const match = numbered.exec(line);
    if (!match) {
      if (line.trim() === '') continue;
      break;
    }
    code.push(match[2]!);
  }
  return { code: code.join('\n'), firstLine: Number(first[1]) };
}

/** `path` relative to `cwd` when it lies inside it (the agent's own folder is implied), else as is. */
export function relativeTo(cwd: string | null, path: string): string {
  if (cwd === null || cwd === '') return path;
  const bases = cwd.endsWith('/') || cwd.endsWith('\\') ? [cwd] : [`${cwd}/`, `${cwd}\\`];
  const base = bases.find((b) => path.startsWith(b) && path.length > b.length);
  return base === undefined ? path : path.slice(base.length);
}

/**
 * The name a call's head shows: a `brief` call's tool (an MCP call as `server/tool`), `apply_patch` for a
 * patch (also one the shell ran), else the call's own.
 */
export function shapeName(name: string, shape: ToolCallShape | undefined): string {
  if (shape?.kind === 'patch') return 'apply_patch';
  return shape?.kind === 'brief' ? shape.tool : name;
}

/** One line saying what a shaped call is about: the command, the files patched, the plan's progress, the argument. */
export function shapeSubject(shape: ToolCallShape, cwd: string | null): string {
  switch (shape.kind) {
    case 'shell':
      return firstLine(shape.command);
    case 'patch': {
      const [first, ...rest] = shape.files;
      if (first === undefined) return '';
      const path = relativeTo(cwd, first.path);
      return rest.length === 0 ? path : `${path} and ${rest.length} more ${rest.length === 1 ? 'file' : 'files'}`;
    }
    case 'plan': {
      const done = shape.steps.filter((step) => step.status === 'completed').length;
      return `${done} of ${shape.steps.length} steps done`;
    }
    case 'brief':
      return relativeTo(cwd, firstLine(shape.argument));
  }
}
