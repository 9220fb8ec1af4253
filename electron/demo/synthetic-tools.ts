/**
 * Tool calls of a synthetic session against an in-memory workspace, so Edit/Write results are
 * consistent (originalFile = the file as the session last left it, structuredPatch = the real change).
 * Memory stays bounded: a fixed set of files that edits keep near their size.
 */
import { type Random } from '../../shared/random';
import { displayHunks, structuredPatch } from './structured-patch';
import { type SyntheticText } from './synthetic-text';

export type ToolName = 'Read' | 'Edit' | 'MultiEdit' | 'Write' | 'Bash' | 'Grep' | 'Glob';

/** A planned call: its input, and the result that the transcript records for it. */
export interface PlannedCall {
  readonly name: ToolName;
  readonly input: Readonly<Record<string, unknown>>;
  readonly content: string;
  readonly toolUseResult: unknown;
  readonly isError: boolean;
  /** The workspace-relative file an Edit/Write changed (for file-history-snapshot lines). */
  readonly changedFile: string | null;
  /** Bash output streamed as progress lines before the result. */
  readonly progressOutput: string | null;
  /** The workspace-relative file a shell command changed (no line records what it wrote). */
  readonly shellChanged?: string;
}

const DIRS = ['src', 'src/store', 'src/import', 'src/ui', 'test/unit', 'scripts'];
const MAX_FILE_LINES = 400;
const MAX_FILES = 24;
const MAX_GREP_HITS = 60;

/** Leading two-space indents as tabs: the style of a tab-indented file. */
function tabIndented(code: string): string {
  return code.replace(/^(?: {2})+/gm, (spaces) => '\t'.repeat(spaces.length / 2));
}

export class SyntheticWorkspace {
  private files = new Map<string, string>();
  /** Files indented with tabs (only with `shapes`). */
  private readonly tabbed = new Set<string>();

  /**
   * `shapes` adds what reconstruction must get right (issue 10): tab-indented files whose Edit hunks are
   * display text, deletions by an empty new string, and shell commands that change a file.
   */
  constructor(
    private readonly cwd: string,
    private readonly random: Random,
    private readonly text: SyntheticText,
    private readonly shapes = false,
  ) {
    const count = random.int(10, 16);
    for (let i = 0; i < count; i++) this.files.set(this.newPath(), text.code(random.int(30, 200)));
    // One big file: reading it gives the occasional 20–100 KB tool output real sessions have.
    this.files.set('src/generated/schema.ts', text.code(random.int(400, 800)));
    if (shapes) {
      for (const [path, content] of this.files) {
        if (!random.chance(0.4)) continue;
        this.tabbed.add(path);
        this.files.set(path, tabIndented(content));
      }
    }
  }

  snapshot(): ReadonlyMap<string, string> {
    return new Map(this.files);
  }

  restore(snapshot: ReadonlyMap<string, string>): void {
    this.files = new Map(snapshot);
  }

  /** A call and its result; `avoid` lists files an Edit or Write must not change (parallel calls of one message). */
  plan(name: ToolName, avoid: ReadonlySet<string> = new Set()): PlannedCall {
    if ((name === 'Edit' || name === 'Write') && avoid.size > 0 && [...this.files.keys()].every((path) => avoid.has(path))) return this.read();
    switch (name) {
      case 'Read':
        return this.read();
      case 'Edit':
        if (this.random.chance(0.07)) return this.failedEdit();
        if (this.shapes && this.random.chance(0.15)) return this.multiEdit(avoid);
        return this.edit(avoid);
      case 'MultiEdit':
        return this.multiEdit(avoid);
      case 'Write':
        return this.write(avoid);
      case 'Bash':
        return this.bash();
      case 'Grep':
        return this.grep();
      case 'Glob':
        return this.glob();
    }
  }

  private abs(relative: string): string {
    return `${this.cwd}/${relative}`;
  }

  private newPath(): string {
    return `${this.random.pick(DIRS)}/${this.text.word()}-${this.text.word()}-${this.random.int(1, 999)}.ts`;
  }

  /**
   * Something outside the transcript changes a file (the user in an editor): no line records it, so the next
   * edit of that file reads other contents than the transcript's replay.
   */
  changeOutside(): string {
    const [path, content] = this.pickFile();
    this.files.set(path, `${content}// touched outside the session ${this.random.int(1, 9999)}\n`);
    return path;
  }

  private pickFile(avoid: ReadonlySet<string> = new Set()): [string, string] {
    const paths = [...this.files.keys()].filter((path) => !avoid.has(path));
    const path = this.random.pick(paths);
    return [path, this.files.get(path) ?? ''];
  }

  private read(): PlannedCall {
    const [path, content] = this.pickFile();
    const all = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
    // Half the reads take a window (offset/limit), as the agent does for long files.
    const partial = all.length > 60 && this.random.chance(0.5);
    const startLine = partial ? this.random.int(1, all.length - 40) : 1;
    const lines = partial ? all.slice(startLine - 1, startLine - 1 + this.random.int(30, 120)) : all;
    const numbered = lines.map((line, i) => `${String(startLine + i).padStart(6)}→${line}`).join('\n');
    const filePath = this.abs(path);
    const file = { filePath, content: lines.join('\n'), numLines: lines.length, startLine, totalLines: all.length };
    const input = partial ? { file_path: filePath, offset: startLine, limit: lines.length } : { file_path: filePath };
    return result('Read', input, numbered, { type: 'text', file }, false, null);
  }

  /** One replacement as the Edit tool makes it: a unique old string (or, rarely, every copy of a word). */
  private replacement(path: string, content: string): { oldString: string; newString: string; replaceAll: boolean; updated: string } {
    if (this.shapes && this.random.chance(0.08)) {
      const word = this.text.word();
      if (content.split(word).length > 2) return { oldString: word, newString: `${word}Next`, replaceAll: true, updated: content.split(word).join(`${word}Next`) };
    }
    const lines = content.split('\n');
    const from = this.random.int(0, Math.max(0, lines.length - 8));
    let to = from + this.random.int(1, 6);
    let oldString = lines.slice(from, to).join('\n');
    // Grow the range until the old string is unique, as the Edit tool requires.
    while ((oldString.trim() === '' || content.indexOf(oldString) !== content.lastIndexOf(oldString)) && to < lines.length) {
      oldString = lines.slice(from, ++to).join('\n');
    }
    const shrink = lines.length > MAX_FILE_LINES;
    const added = Math.max(0, to - from + (shrink ? -3 : this.random.int(-2, 4)));
    let newString = this.text.code(added).replace(/\n$/, '') || `  // ${this.text.prose(1)}`;
    if (this.tabbed.has(path)) newString = tabIndented(newString);
    if (this.shapes && this.random.chance(0.1)) newString = '';
    // Claude Code's Edit: an empty new string deletes the old one's line, newline included.
    const deletesLine = newString === '' && !oldString.endsWith('\n') && content.includes(`${oldString}\n`);
    const updated = content.replace(deletesLine ? `${oldString}\n` : oldString, () => newString);
    return { oldString, newString, replaceAll: false, updated };
  }

  private edit(avoid: ReadonlySet<string>): PlannedCall {
    const [path, content] = this.pickFile(avoid);
    const { oldString, newString, replaceAll, updated } = this.replacement(path, content);
    this.files.set(path, updated);
    const hunks = structuredPatch(content, updated);
    const filePath = this.abs(path);
    const toolUseResult = {
      filePath,
      oldString,
      newString,
      originalFile: content,
      structuredPatch: this.shapes ? displayHunks(hunks) : hunks,
      userModified: false,
      replaceAll,
    };
    return result('Edit', { file_path: filePath, old_string: oldString, new_string: newString, replace_all: replaceAll }, `The file ${filePath} has been updated successfully.`, toolUseResult, false, path);
  }

  /** MultiEdit (older Claude Code): its edits apply in sequence, each to the text the one before left. */
  private multiEdit(avoid: ReadonlySet<string>): PlannedCall {
    const [path, content] = this.pickFile(avoid);
    const edits: { old_string: string; new_string: string; replace_all: boolean }[] = [];
    let text = content;
    for (let k = this.random.int(2, 3); k > 0; k--) {
      const { oldString, newString, replaceAll, updated } = this.replacement(path, text);
      edits.push({ old_string: oldString, new_string: newString, replace_all: replaceAll });
      text = updated;
    }
    this.files.set(path, text);
    const filePath = this.abs(path);
    const toolUseResult = { filePath, edits, originalFileContents: content, structuredPatch: displayHunks(structuredPatch(content, text)), userModified: false };
    return result('MultiEdit', { file_path: filePath, edits }, `Applied ${edits.length} edits to ${filePath}`, toolUseResult, false, path);
  }

  private failedEdit(): PlannedCall {
    const [path] = this.pickFile();
    const oldString = this.text.code(2).replace(/\n$/, '');
    const message = `String to replace not found in file.\nString: ${oldString}`;
    const input = { file_path: this.abs(path), old_string: oldString, new_string: this.text.code(2), replace_all: false };
    return result('Edit', input, `<tool_use_error>${message}</tool_use_error>`, `Error: ${message}`, true, null);
  }

  private write(avoid: ReadonlySet<string>): PlannedCall {
    const create = this.files.size < MAX_FILES && this.random.chance(0.5);
    const path = create ? this.newPath() : this.pickFile(avoid)[0];
    const before = this.files.get(path);
    const content = this.text.code(this.random.int(20, 160));
    this.files.set(path, content);
    const filePath = this.abs(path);
    const isCreate = before === undefined;
    const toolUseResult = {
      type: isCreate ? 'create' : 'update',
      filePath,
      content,
      structuredPatch: isCreate ? [] : structuredPatch(before, content),
      originalFile: isCreate ? null : before,
    };
    const message = isCreate ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`;
    return result('Write', { file_path: filePath, content }, message, toolUseResult, false, path);
  }

  private bash(): PlannedCall {
    if (this.shapes && this.random.chance(0.2)) return this.formatFile();
    const command = this.text.command();
    const big = this.random.chance(0.04);
    const stdout = this.text.output(big ? this.random.int(20_000, 90_000) : this.random.int(80, 2500));
    const input = { command, description: `Run ${command.split(' ')[0] ?? 'command'}` };
    if (this.random.chance(0.05)) {
      const failure = `Exit code 1\n${stdout.slice(0, 1500)}`;
      return { ...result('Bash', input, failure, `Error: ${failure}`, true, null), progressOutput: stdout.slice(0, 400) };
    }
    const toolUseResult = { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    return { ...result('Bash', input, stdout, toolUseResult, false, null), progressOutput: big ? stdout.slice(0, 2000) : null };
  }

  /** A shell command that changes a file: the transcript records the command, not the change. */
  private formatFile(): PlannedCall {
    const [path, content] = this.pickFile();
    const word = this.text.word();
    this.files.set(path, content.replaceAll(word, `${word}2`));
    const input = { command: `sed -i 's/${word}/${word}2/g' ${path}`, description: `Rename ${word}` };
    const toolUseResult = { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: true };
    return { ...result('Bash', input, '', toolUseResult, false, null), shellChanged: path };
  }

  private grep(): PlannedCall {
    const pattern = this.text.word();
    const hits: string[] = [];
    for (const [path, content] of this.files) {
      if (hits.length >= MAX_GREP_HITS) break;
      content.split('\n').forEach((line, i) => {
        if (hits.length < MAX_GREP_HITS && line.includes(pattern)) hits.push(`${path}:${i + 1}:${line}`);
      });
    }
    const content = hits.join('\n');
    const toolUseResult = { mode: 'content', numFiles: 0, filenames: [], content, numLines: hits.length };
    return result('Grep', { pattern, path: this.cwd, output_mode: 'content', '-n': true }, content || 'No matches found', toolUseResult, false, null);
  }

  private glob(): PlannedCall {
    const filenames = [...this.files.keys()].filter(() => this.random.chance(0.6)).map((p) => this.abs(p));
    const toolUseResult = { filenames, durationMs: this.random.int(5, 400), numFiles: filenames.length, truncated: false };
    return result('Glob', { pattern: '**/*.ts' }, filenames.join('\n') || 'No files found', toolUseResult, false, null);
  }
}

function result(name: ToolName, input: Readonly<Record<string, unknown>>, content: string, toolUseResult: unknown, isError: boolean, changedFile: string | null): PlannedCall {
  return { name, input, content, toolUseResult, isError, changedFile, progressOutput: null };
}
