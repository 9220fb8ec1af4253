/** One-line labels for tool calls and their results ("Edit src/a.ts", "Bash: npm test", "✗ Edit — …"). */
import { clip, firstLine } from './label-text';

type Input = Readonly<Record<string, unknown>>;

const FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead']);
/** Tools that start a subagent; `Agent` is the newer name of `Task`. */
export const SPAWN_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent']);

export function toolCallLabel(name: string, input: unknown, cwd: string | null): string {
  const args: Input = typeof input === 'object' && input !== null ? (input as Input) : {};
  if (FILE_TOOLS.has(name)) {
    const path = nonEmptyString(args, 'file_path') ?? nonEmptyString(args, 'notebook_path') ?? nonEmptyString(args, 'path');
    return clip(path === null ? name : `${name} ${shortPath(path, cwd)}`);
  }
  switch (name) {
    case 'Bash': {
      const command = nonEmptyString(args, 'command');
      return command === null ? 'Bash' : `Bash: ${firstLine(command, 114)}`;
    }
    case 'Grep': {
      const pattern = nonEmptyString(args, 'pattern');
      const path = nonEmptyString(args, 'path');
      const where = path === null ? '' : ` in ${shortPath(path, cwd)}`;
      return clip(pattern === null ? 'Grep' : `Grep "${firstLine(pattern, 80)}"${where}`);
    }
    case 'Glob':
      return clip(`Glob ${nonEmptyString(args, 'pattern') ?? ''}`.trim());
    case 'LS':
      return clip(`LS ${shortPath(nonEmptyString(args, 'path') ?? '', cwd)}`.trim());
    case 'Task':
    case 'Agent': {
      const what = nonEmptyString(args, 'description') ?? nonEmptyString(args, 'prompt');
      const type = nonEmptyString(args, 'subagent_type');
      const head = type === null ? name : `${name} (${type})`;
      return clip(what === null ? head : `${head}: ${firstLine(what)}`);
    }
    case 'WebFetch':
      return clip(`WebFetch ${nonEmptyString(args, 'url') ?? ''}`.trim());
    case 'WebSearch':
      return clip(`WebSearch "${nonEmptyString(args, 'query') ?? ''}"`);
    case 'TodoWrite': {
      const todos = args.todos;
      return Array.isArray(todos) ? `TodoWrite (${todos.length} todos)` : 'TodoWrite';
    }
    default: {
      const first = Object.values(args).find((value): value is string => typeof value === 'string' && value.length > 0);
      return clip(first === undefined ? name : `${name}: ${firstLine(first, 100)}`);
    }
  }
}

/** Result label: `✓ Bash — 3 passed` or `✗ Edit — String to replace not found`. */
export function toolResultLabel(name: string | null, text: string, isError: boolean, extra: number): string {
  const mark = isError ? '✗' : '✓';
  const tool = name ?? (isError ? 'tool error' : 'tool result');
  const detail = firstLine(isError ? cleanError(text) : text);
  const more = extra > 0 ? ` (+${extra})` : '';
  return clip(detail.length === 0 ? `${mark} ${tool}${more}` : `${mark} ${tool}${more} — ${detail}`);
}

function cleanError(text: string): string {
  let cleaned = text.trimStart();
  if (cleaned.startsWith('<tool_use_error>')) cleaned = cleaned.slice('<tool_use_error>'.length);
  const close = cleaned.indexOf('</tool_use_error>');
  if (close !== -1) cleaned = cleaned.slice(0, close);
  if (cleaned.startsWith('Error: ')) cleaned = cleaned.slice('Error: '.length);
  return cleaned;
}

function nonEmptyString(args: Input, key: string): string | null {
  const value = args[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** A path relative to the session's cwd when it lies inside it. */
export function shortPath(path: string, cwd: string | null): string {
  if (cwd !== null && cwd.length > 0 && path.length > cwd.length + 1 && path.startsWith(cwd)) {
    const separator = path[cwd.length];
    if (separator === '/' || separator === '\\') return path.slice(cwd.length + 1);
  }
  return path;
}
