/**
 * A scripted agent for the demo: it works on an in-memory copy of the workspace so every Edit/Write
 * result carries the real pre-edit file (originalFile) and the real patch, like Claude Code records them.
 */
import { type Random } from '../../shared/random';
import { structuredPatch } from './structured-patch';
import { type AssistantBlock, type FileBackup, type ToolCall, type TranscriptBuilder, type Usage } from './transcript-builder';

export interface ToolOutcome {
  readonly content: string | readonly Readonly<Record<string, unknown>>[];
  readonly toolUseResult: unknown;
  readonly isError: boolean;
}

/** A tool call the script makes: its input and (unless the call is left unanswered) its outcome. */
export interface ScriptedCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly outcome: ToolOutcome | null;
  /** The workspace-relative file an Edit/Write changed, and whether the call created it. */
  readonly changedFile?: { readonly path: string; readonly created: boolean };
  /** Lines written between the call and its result (bash output, subagent progress). */
  readonly progress?: (builder: TranscriptBuilder, call: ToolCall) => void;
}

export interface Preface {
  readonly thinking?: string;
  readonly text?: string;
}

export class DemoSession {
  private readonly backups = new Map<string, FileBackup>();
  private promptUuid = '';
  private context = 14_000;

  constructor(
    readonly builder: TranscriptBuilder,
    readonly files: Map<string, string>,
    private readonly random: Random,
    private readonly model: string,
  ) {}

  get cwd(): string {
    return this.builder.scope.cwd;
  }

  abs(path: string): string {
    return `${this.cwd}/${path}`;
  }

  /** A typed user prompt, preceded by its file-history-snapshot (FORMATS.md §1.7). */
  prompt(text: string, afterMinutes: number): string {
    this.builder.advance(afterMinutes * 60_000);
    this.promptUuid = this.builder.reserveUuid();
    if (this.builder.scope.agentId === undefined) this.builder.fileHistorySnapshot(this.promptUuid, Object.fromEntries(this.backups));
    return this.builder.userPrompt(text);
  }

  /** One assistant message (thinking/text/tool_use lines) followed by the calls' progress and results. */
  step(preface: Preface, calls: readonly ScriptedCall[]): void {
    this.builder.advance(this.random.int(2_000, 9_000));
    const blocks: AssistantBlock[] = [];
    if (preface.thinking) blocks.push({ type: 'thinking', thinking: preface.thinking, signature: this.signature() });
    if (preface.text) blocks.push({ type: 'text', text: preface.text });
    for (const call of calls) blocks.push({ type: 'tool_use', id: this.builder.toolUseId(), name: call.name, input: call.input });
    const message = this.builder.assistant(blocks, this.model, this.usage(), calls.length > 0 ? 'tool_use' : 'end_turn');
    message.calls.forEach((made, i) => {
      const call = calls[i];
      if (!call?.outcome) return;
      call.progress?.(this.builder, made);
      this.builder.hookProgress('PostToolUse', `PostToolUse:${made.name}`, '$HOME/.claude/hooks/post-tool.sh', made.toolUseId);
      this.builder.advance(this.random.int(300, 4_000));
      this.builder.toolResult(made, call.outcome.content, call.outcome.toolUseResult, call.outcome.isError);
      if (call.changedFile !== undefined) this.backup(call.changedFile);
    });
  }

  reply(text: string, thinking?: string): void {
    this.step(thinking ? { thinking, text } : { text }, []);
  }

  read(path: string): ScriptedCall {
    const content = this.file(path);
    const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
    const numbered = lines.map((line, i) => `${String(i + 1).padStart(6)}→${line}`).join('\n');
    const file = { filePath: this.abs(path), content, numLines: lines.length, startLine: 1, totalLines: lines.length };
    return { name: 'Read', input: { file_path: this.abs(path) }, outcome: { content: numbered, toolUseResult: { type: 'text', file }, isError: false } };
  }

  edit(path: string, oldString: string, newString: string): ScriptedCall {
    const filePath = this.abs(path);
    const input = { file_path: filePath, old_string: oldString, new_string: newString, replace_all: false };
    const before = this.file(path);
    if (!before.includes(oldString)) {
      const message = `String to replace not found in file.\nString: ${oldString}`;
      return { name: 'Edit', input, outcome: { content: `<tool_use_error>${message}</tool_use_error>`, toolUseResult: `Error: ${message}`, isError: true } };
    }
    const after = before.replace(oldString, () => newString);
    this.files.set(path, after);
    const toolUseResult = { filePath, oldString, newString, originalFile: before, structuredPatch: structuredPatch(before, after), userModified: false, replaceAll: false };
    return { name: 'Edit', input, changedFile: { path, created: false }, outcome: { content: `The file ${filePath} has been updated successfully.`, toolUseResult, isError: false } };
  }

  write(path: string, content: string): ScriptedCall {
    const filePath = this.abs(path);
    const before = this.files.get(path);
    this.files.set(path, content);
    const toolUseResult =
      before === undefined
        ? { type: 'create', filePath, content, structuredPatch: [], originalFile: null }
        : { type: 'update', filePath, content, structuredPatch: structuredPatch(before, content), originalFile: before };
    const message = before === undefined ? `File created successfully at: ${filePath}` : `The file ${filePath} has been updated successfully.`;
    return { name: 'Write', input: { file_path: filePath, content }, changedFile: { path, created: before === undefined }, outcome: { content: message, toolUseResult, isError: false } };
  }

  bash(command: string, description: string, stdout: string): ScriptedCall {
    return {
      name: 'Bash',
      input: { command, description },
      outcome: { content: stdout, toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, isError: false },
      progress: (builder, call) => builder.bashProgress(call.toolUseId, stdout.split('\n').slice(0, 3).join('\n'), 2),
    };
  }

  /** A call the transcript never answers (the user interrupted it, or the record was lost). */
  unanswered(name: string, input: Readonly<Record<string, unknown>>): ScriptedCall {
    return { name, input, outcome: null };
  }

  /** Restores the in-memory workspace, as "restore code and conversation" does on /rewind. */
  restore(files: ReadonlyMap<string, string>): void {
    this.files.clear();
    for (const [path, content] of files) this.files.set(path, content);
  }

  private file(path: string): string {
    const content = this.files.get(path);
    if (content === undefined) throw new Error(`demo script reads a file it never wrote: ${path}`);
    return content;
  }

  /** Claude Code backs a file up before its first change in a session; `null` = it did not exist (FORMATS.md §1.7). */
  private backup(changed: { readonly path: string; readonly created: boolean }): void {
    if (this.builder.scope.agentId !== undefined || this.backups.has(changed.path)) return;
    const backupFileName = changed.created ? null : `${this.random.hex(16)}@v1`;
    this.backups.set(changed.path, { backupFileName, version: 1, backupTime: this.builder.timestamp() });
    this.builder.fileHistorySnapshot(this.builder.last ?? this.promptUuid, Object.fromEntries(this.backups), true, this.promptUuid);
  }

  private usage(): Usage {
    this.context += this.random.int(400, 3_000);
    return { input_tokens: this.random.int(2, 9), cache_creation_input_tokens: this.random.int(200, 3_000), cache_read_input_tokens: this.context, output_tokens: this.random.int(40, 900) };
  }

  private signature(): string {
    return `Eq${this.random.base62(this.random.int(300, 600))}==`;
  }
}
