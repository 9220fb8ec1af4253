/**
 * Moves the source workspace's absolute paths into the fork's folder in what the model reads of a copied
 * line: the prompt, text blocks, tool calls' inputs and tool results. Resumed in the fork, the agent would
 * otherwise go on editing `/old/workspace/src/a.ts`, the folder it was forked from, because that is the
 * path its history names (FORMATS.md §1.10: tool `file_path`s should match the real working directory).
 *
 * Only those string values are rewritten, by splicing the JSON text: thinking and redacted-thinking blocks
 * (whose signatures must stay byte for byte), images and documents, and everything outside `message` (such
 * as `toolUseResult`, which holds file contents, and which the model never sees) keep their bytes.
 */
import { sep } from 'node:path';
import { arrayElements, objectMembers, topLevelMembers, type ValueSpan } from './transcript-line';

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Characters that continue a path or a word: a match next to one is part of something longer. */
const CONTINUES_BEFORE = /[A-Za-z0-9._~\-/\\]/;
const CONTINUES_AFTER = /[A-Za-z0-9_~-]/;

/** Where `from` ends, does the path end there or go on into a child (`/`), rather than into a longer name? */
function endsAtBoundary(text: string, at: number): boolean {
  const next = text[at];
  if (next === undefined || next === '/' || next === '\\') return true;
  if (next === '.') {
    // "…/repo." ends a sentence; "…/repo.bak" is another folder.
    const after = text[at + 1];
    return after === undefined || !(CONTINUES_AFTER.test(after) || after === '.');
  }
  return !CONTINUES_AFTER.test(next);
}

/** `text` with every whole-path occurrence of `from` (alone or as a parent folder) replaced by `to`. */
export function movePaths(text: string, from: string, to: string): string {
  let out = '';
  let copied = 0;
  let at = text.indexOf(from);
  while (at >= 0) {
    const before = at === 0 ? '' : text[at - 1]!;
    if ((before === '' || !CONTINUES_BEFORE.test(before)) && endsAtBoundary(text, at + from.length)) {
      out += text.slice(copied, at) + to;
      copied = at + from.length;
      at = text.indexOf(from, copied);
    } else {
      at = text.indexOf(from, at + 1);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The folder as it is matched: no trailing separator. A filesystem root is never moved (it would match everything). */
function folderKey(dir: string): string | undefined {
  const trimmed = dir.length > 1 && (dir.endsWith('/') || dir.endsWith(sep)) ? dir.slice(0, -1) : dir;
  if (trimmed.length < 2 || /^[A-Za-z]:\\?$/.test(trimmed)) return undefined;
  return trimmed;
}

class Relocation {
  readonly edits: Edit[] = [];

  constructor(
    private readonly text: string,
    private readonly from: string,
    private readonly to: string,
  ) {}

  private string(span: ValueSpan): void {
    const raw = this.text.slice(span.start, span.end);
    const value = JSON.parse(raw) as string;
    const moved = movePaths(value, this.from, this.to);
    if (moved !== value) this.edits.push({ start: span.start, end: span.end, text: JSON.stringify(moved) });
  }

  /** Every string inside a value (a tool call's input), at any depth; keys stay. */
  deep(span: ValueSpan): void {
    const first = this.text[span.start];
    if (first === '"') this.string(span);
    else if (first === '{') for (const member of objectMembers(this.text, span.start).values()) this.deep(member);
    else if (first === '[') for (const element of arrayElements(this.text, span.start)) this.deep(element);
  }

  /** A message's `content`: the prompt as a string, or blocks. */
  content(span: ValueSpan): void {
    const first = this.text[span.start];
    if (first === '"') return this.string(span);
    if (first !== '[') return;
    for (const element of arrayElements(this.text, span.start)) {
      if (this.text[element.start] !== '{') continue;
      const block = objectMembers(this.text, element.start);
      const typeSpan = block.get('type');
      const type = typeSpan === undefined ? undefined : (JSON.parse(this.text.slice(typeSpan.start, typeSpan.end)) as unknown);
      if (type === 'text') this.optionalString(block.get('text'));
      else if (type === 'tool_use' && block.has('input')) this.deep(block.get('input')!);
      else if (type === 'tool_result' && block.has('content')) this.content(block.get('content')!);
      // thinking, redacted_thinking, image, document and anything newer: their bytes stay.
    }
  }

  private optionalString(span: ValueSpan | undefined): void {
    if (span !== undefined && this.text[span.start] === '"') this.string(span);
  }
}

/**
 * `line` with `fromDir`'s paths moved to `toDir` in its message content. Lines that never mention the
 * folder (most of them) are returned as they are, after one substring search.
 */
export function relocateMessagePaths(line: string, fromDir: string | null, toDir: string): string {
  const from = fromDir === null ? undefined : folderKey(fromDir);
  const to = folderKey(toDir) ?? toDir;
  if (from === undefined || from === to) return line;
  // The folder as it appears inside a JSON string (backslashes and quotes escaped).
  if (!line.includes(JSON.stringify(from).slice(1, -1))) return line;
  const message = topLevelMembers(line).get('message');
  if (message === undefined || line[message.start] !== '{') return line;
  const content = objectMembers(line, message.start).get('content');
  if (content === undefined) return line;
  const relocation = new Relocation(line, from, to);
  relocation.content(content);
  if (relocation.edits.length === 0) return line;
  let result = line;
  for (const edit of [...relocation.edits].sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
