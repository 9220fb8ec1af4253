/**
 * Which tool calls may change files in ways the transcript does not record (FORMATS.md §1.4: "File changes
 * made by Bash are not tracked anywhere"). Conservative on purpose: a call is read-only only when it is a
 * known read-only tool, or a shell command every part of which is a known read-only program with no output
 * redirection. Everything else (builds, tests, package managers, interpreters, MCP tools, tools this
 * version does not know) may have written files.
 *
 * Rules for shell commands:
 * - the command is split on `;`, `&&`, `||`, `|`, `&` and newlines outside quotes; every part must be read-only;
 * - `>`/`>>` redirections make the command writing, except into /dev/null and fd duplications (`2>&1`);
 * - command substitution (`$(…)`, backticks, `<(…)`) and shell constructs (loops, subshells) are not read;
 * - leading `VAR=value` assignments and `cd`/`pushd`/`popd` are allowed (they change no file);
 * - read-only programs: see READ_ONLY_PROGRAMS; `find` without -delete, -exec, -ok or -fprint; `sed` without -i;
 *   `sort` without -o; `git` with a read-only subcommand (status, diff, log, show, blame, …), `git branch`
 *   / `git remote` / `git tag` / `git stash` only when listing.
 */

export type ToolEffect =
  | 'none' // reads only
  | 'file-edit' // Edit / Write / MultiEdit / NotebookEdit: its result tells what changed
  | 'subagent' // Task / Agent: as read-only as the subagent run it spawned
  | 'may-write'; // may have changed files the transcript cannot replay

const READ_ONLY_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate',
  'TaskList', 'TaskGet', 'TaskOutput', 'BashOutput', 'KillShell', 'KillBash', 'ExitPlanMode', 'EnterPlanMode',
  'AskUserQuestion', 'ToolSearch', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'Skill', 'StructuredOutput',
]);
const FILE_EDIT = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const SUBAGENT = new Set(['Task', 'Agent']);
const SHELL = new Set(['Bash', 'PowerShell']);

const READ_ONLY_PROGRAMS = new Set([
  'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'wc', 'which', 'type',
  'whereis', 'file', 'stat', 'du', 'df', 'tree', 'less', 'more', 'diff', 'cmp', 'uniq', 'cut', 'tr', 'jq', 'date',
  'env', 'printenv', 'whoami', 'id', 'uname', 'hostname', 'ps', 'true', 'false', 'test', '[', 'basename', 'dirname',
  'realpath', 'readlink', 'md5sum', 'sha1sum', 'sha256sum', 'shasum', 'nl', 'od', 'xxd', 'hexdump', 'strings',
  'column', 'sleep', 'cd', 'pushd', 'popd', 'fd', 'locate', 'comm', 'sort', 'sed', 'find', 'git',
]);

const GIT_READ_ONLY = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'rev-parse', 'ls-files', 'ls-tree', 'describe', 'grep', 'shortlog',
  'cat-file', 'rev-list', 'reflog', 'whatchanged', 'merge-base', 'name-rev', 'show-ref', 'for-each-ref', 'count-objects',
]);
const GIT_LISTING = new Set(['branch', 'remote', 'tag', 'stash', 'config', 'worktree']);
/** Arguments after which `git <listing command>` only lists. */
const GIT_LIST_ARGS = new Set(['-a', '-r', '-v', '-vv', '--all', '--list', '-l', '--show-current', '--get', '--get-all', '--contains', '--merged', '--no-merged', 'list', 'show', '--no-color', '--color']);

export function toolEffect(name: string, input: unknown): ToolEffect {
  if (FILE_EDIT.has(name)) return 'file-edit';
  if (SUBAGENT.has(name)) return 'subagent';
  if (READ_ONLY_TOOLS.has(name)) return 'none';
  if (SHELL.has(name)) {
    const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
    return typeof command === 'string' && isReadOnlyCommand(command) ? 'none' : 'may-write';
  }
  return 'may-write';
}

interface Lexed {
  readonly parts: string[][];
  readonly writes: boolean;
  readonly unreadable: boolean;
}

/** Splits a command line into parts of words, outside quotes; notes redirections and substitutions. */
function lex(command: string): Lexed {
  const parts: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  let writes = false;
  let unreadable = false;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endPart = () => {
    endWord();
    if (words.length > 0) parts.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    const next = command[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word = (word ?? '') + ch;
      continue;
    }
    if (ch === '\\') {
      word = (word ?? '') + (next ?? '');
      i++;
      continue;
    }
    if (ch === '`' || (ch === '$' && next === '(') || ((ch === '<' || ch === '>') && next === '(')) unreadable = true;
    if (quote === '"') {
      if (ch === '"') quote = null;
      else word = (word ?? '') + ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      word = word ?? '';
    } else if (ch === ' ' || ch === '\t') {
      endWord();
    } else if (ch === ';' || ch === '\n' || ch === '|' || ch === '&') {
      if (ch === '&' && next === '>') {
        // &> file: both streams into a file
        const target = redirectTarget(command, i + 2);
        if (target.word !== '/dev/null') writes = true;
        i = target.end - 1;
        continue;
      }
      endPart();
      if ((ch === '|' || ch === '&') && next === ch) i++;
    } else if (ch === '>') {
      const append = next === '>';
      const start = i + (append ? 2 : 1);
      if (command[start] === '&') {
        i = start; // 2>&1, >&2: duplicates a descriptor
        endWord();
        continue;
      }
      const target = redirectTarget(command, start);
      if (target.word !== '/dev/null') writes = true;
      // a descriptor number just before `>` is part of the redirection, not a word
      if (word !== null && /^\d+$/.test(word)) word = null;
      endWord();
      i = target.end - 1;
    } else if (ch === '(' || ch === ')' || ch === '{' || ch === '}') {
      unreadable = true;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote !== null) unreadable = true;
  endPart();
  return { parts, writes, unreadable };
}

function redirectTarget(command: string, from: number): { word: string; end: number } {
  let i = from;
  while (command[i] === ' ' || command[i] === '\t') i++;
  let word = '';
  while (i < command.length && !/[\s;&|<>]/.test(command[i]!)) word += command[i++];
  return { word, end: i };
}

function isReadOnlyPart(words: readonly string[]): boolean {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const program = words[i];
  if (program === undefined) return true;
  const args = words.slice(i + 1);
  if (!READ_ONLY_PROGRAMS.has(program)) return false;
  switch (program) {
    case 'find':
      return !args.some((arg) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(arg));
    case 'sed':
      return !args.some((arg) => /^(-i|--in-place)/.test(arg) || /^-[a-zA-Z]*i/.test(arg));
    case 'sort':
      return !args.some((arg) => arg === '-o' || arg.startsWith('--output') || /^-[a-zA-Z]*o/.test(arg));
    case 'env':
      // `env` alone lists; `env X=1 cmd` runs cmd
      return args.every((arg) => arg.startsWith('-') || arg.includes('='));
    case 'git':
      return isReadOnlyGit(args);
    default:
      return true;
  }
}

function isReadOnlyGit(args: readonly string[]): boolean {
  let i = 0;
  // global options: -C <dir>, --no-pager, -c key=value
  while (i < args.length && args[i]!.startsWith('-')) i += args[i] === '-C' || args[i] === '-c' ? 2 : 1;
  const sub = args[i];
  if (sub === undefined) return true;
  const rest = args.slice(i + 1);
  if (GIT_READ_ONLY.has(sub)) return !rest.some((arg) => arg === '--output' || arg.startsWith('--output=') || arg === '-o');
  // `git stash` alone stashes (writes); only `stash list` / `stash show` read.
  if (sub === 'stash') return rest[0] === 'list' || rest[0] === 'show';
  if (GIT_LISTING.has(sub)) return rest.every((arg) => GIT_LIST_ARGS.has(arg) || (sub === 'config' && rest.includes('--get')));
  return false;
}

/** True when the command cannot have changed a file (by the rules above). */
export function isReadOnlyCommand(command: string): boolean {
  const lexed = lex(command);
  if (lexed.writes || lexed.unreadable) return false;
  return lexed.parts.every(isReadOnlyPart);
}
