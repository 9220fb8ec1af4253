/**
 * What one file-edit tool result says about a file (FORMATS.md §1.4): its content before and after the
 * edit, as far as the result line alone tells. Rejected and failed edits (a string `toolUseResult`, or an
 * `is_error` tool_result) changed nothing and give no FileEdit.
 *
 * Where the pre-state comes from, best first:
 * - `originalFile` (Edit, Write ≥ 2.0.5x) / `originalFileContents` (MultiEdit): the whole file as read;
 * - Write `type:"create"`: the file did not exist;
 * - Write `type:"update"` without `originalFile` (old versions): the written `content` with the hunks undone,
 *   only where that is exact (see exactReversePatch);
 * - otherwise unknown: the caller may still apply the edit to a state it derived from earlier steps.
 * The post-state: Write's `content` is exact. For Edit / MultiEdit the replacements (`oldString`/`newString`,
 * `replaceAll`, MultiEdit's `edits` in sequence) are what the tool did; `structuredPatch` is display text in
 * many versions (a leading tab written as two spaces), so hunks are used only when the strings are absent.
 * When the strings are there but do not apply to the pre-state, the post-state is unknown, never the hunks'
 * guess. `userModified` (the user changed the proposal before it ran) changes nothing here: the result's
 * strings are the ones that ran.
 */
import { UNKNOWN_CONTENT, type BeforeSource, type ContextHunk, type FileContent, type FileEffect, type StringReplacement, type UnknownContent } from '../../importers/transcript';
import { applyContextPatch } from './context-patch';
import { applyPatch, readHunks, unapplyPatch, type PatchHunk } from './patch';

export { UNKNOWN_CONTENT, type BeforeSource, type FileContent, type StringReplacement, type UnknownContent };

export type FileEditTool = 'Edit' | 'MultiEdit' | 'Write' | 'NotebookEdit';
export const FILE_EDIT_TOOLS: readonly string[] = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'] satisfies readonly FileEditTool[];

/** What one edit did to one file: the format-neutral file effect (importers/transcript.ts). */
export type FileEdit = FileEffect;

/** The tool_use a result answers: its name and input (from the call line). */
export interface ToolUseRef {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Substitutes like the Edit tool: the first occurrence, or all of them; null when `oldString` is absent.
 * Deleting whole lines (an empty `newString`) takes the line's newline too, as the tool does (seen in
 * 1.0.51 results whose hunks drop the line).
 */
export function replaceInText(text: string, replacement: StringReplacement): string | null {
  const { newString, replaceAll } = replacement;
  let { oldString } = replacement;
  if (oldString === '') return text === '' ? newString : null;
  if (newString === '' && !oldString.endsWith('\n') && text.includes(`${oldString}\n`)) oldString = `${oldString}\n`;
  const at = text.indexOf(oldString);
  if (at === -1) return null;
  if (replaceAll) return text.split(oldString).join(newString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

/**
 * The post-state of `before` under this edit: its replacements in sequence when it has any (the truth, see
 * the module comment), else its hunks; UNKNOWN_CONTENT when what it has does not fit or it has neither.
 */
export function applyFileEdit(
  before: string | null,
  patch: readonly PatchHunk[],
  replacements: readonly StringReplacement[],
  contextPatch?: readonly ContextHunk[],
): FileContent {
  // Hunks found by context patch an existing file only (Codex refuses to update a missing one).
  if (contextPatch !== undefined) return before === null ? UNKNOWN_CONTENT : (applyContextPatch(before, contextPatch) ?? UNKNOWN_CONTENT);
  const base = before ?? '';
  if (replacements.length > 0) {
    let text: string | null = base;
    for (const replacement of replacements) text = text === null ? null : replaceInText(text, replacement);
    return text ?? UNKNOWN_CONTENT;
  }
  if (patch.length > 0) return applyPatch(base, patch) ?? UNKNOWN_CONTENT;
  // Nothing tells what it wrote (a Write without content, a NotebookEdit without its files).
  return UNKNOWN_CONTENT;
}

/** Display hunks write a leading tab as two spaces: seen in a '-' line of a file that indents with tabs. */
const DISPLAY_INDENT = /^ {2}/;

/**
 * `content` with `patch` undone, when that gives the exact old file: the removed lines are the only text the
 * hunks alone tell, and in display hunks a tab-indented file's removed lines may read as spaces.
 */
function exactReversePatch(content: string, patch: readonly PatchHunk[]): string | null {
  const tabIndented = /(^|\n)\t/.test(content);
  if (tabIndented && patch.some((hunk) => hunk.lines.some((line) => line.startsWith('-') && DISPLAY_INDENT.test(line.slice(1))))) return null;
  return unapplyPatch(content, patch);
}

function readReplacements(tool: FileEditTool, result: Json, input: Json): StringReplacement[] {
  if (tool === 'Edit') {
    const oldString = str(result.oldString) ?? str(input.old_string);
    const newString = str(result.newString) ?? str(input.new_string);
    if (oldString === null || newString === null) return [];
    return [{ oldString, newString, replaceAll: result.replaceAll === true || input.replace_all === true }];
  }
  if (tool === 'MultiEdit') {
    const edits = Array.isArray(result.edits) ? result.edits : Array.isArray(input.edits) ? input.edits : [];
    return edits.flatMap((edit: unknown) => {
      if (!isJson(edit)) return [];
      const oldString = str(edit.old_string);
      const newString = str(edit.new_string);
      return oldString === null || newString === null ? [] : [{ oldString, newString, replaceAll: edit.replace_all === true }];
    });
  }
  return [];
}

/**
 * The edit a file-edit tool result made, or null when it made none (rejected, failed, not a file-edit
 * tool, or a result too damaged to name its file).
 */
export function readFileEdit(call: ToolUseRef, toolUseResult: unknown, isError: boolean): FileEdit | null {
  if (!FILE_EDIT_TOOLS.includes(call.name)) return null;
  const tool = call.name as FileEditTool;
  if (isError || !isJson(toolUseResult)) return null;
  const result = toolUseResult;
  const input = isJson(call.input) ? call.input : {};
  const path = str(result.filePath) ?? str(result.notebook_path) ?? str(input.file_path) ?? str(input.notebook_path);
  if (path === null) return null;
  const patch = readHunks(result.structuredPatch) ?? [];
  const replacements = readReplacements(tool, result, input);
  const edit = (before: FileContent, after: FileContent, source: BeforeSource): FileEdit => ({
    tool, toolUseId: call.id, path, before, after, source, patch, replacements,
  });
  const forward = (before: string | null, source: BeforeSource): FileEdit => edit(before, applyFileEdit(before, patch, replacements), source);

  switch (tool) {
    case 'Edit':
      if ('originalFile' in result && (typeof result.originalFile === 'string' || result.originalFile === null)) {
        return forward(result.originalFile, result.originalFile === null ? 'create' : 'originalFile');
      }
      return edit(UNKNOWN_CONTENT, UNKNOWN_CONTENT, 'none');
    case 'MultiEdit': {
      const original = result.originalFileContents ?? result.originalFile;
      if (typeof original === 'string') return forward(original, 'originalFileContents');
      if (original === null) return forward(null, 'create');
      return edit(UNKNOWN_CONTENT, UNKNOWN_CONTENT, 'none');
    }
    case 'Write': {
      const content = str(result.content) ?? str(input.content);
      const after: FileContent = content ?? UNKNOWN_CONTENT;
      if (typeof result.originalFile === 'string') return edit(result.originalFile, after, 'originalFile');
      if (result.originalFile === null || result.type === 'create') return edit(null, after, 'create');
      if (content !== null && (result.type === 'update' || patch.length > 0)) {
        const before = exactReversePatch(content, patch);
        return edit(before ?? UNKNOWN_CONTENT, after, before === null ? 'none' : 'reverse-patch');
      }
      return edit(UNKNOWN_CONTENT, after, 'none');
    }
    case 'NotebookEdit': {
      // The notebook tool rewrites JSON cells; only a result that carries both whole files tells the states.
      const before = str(result.original_file);
      const after = str(result.updated_file);
      return edit(before ?? UNKNOWN_CONTENT, after ?? UNKNOWN_CONTENT, before === null ? 'none' : 'notebook');
    }
  }
}
