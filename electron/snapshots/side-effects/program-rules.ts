/**
 * Per-program rules for one simple shell command (already known not to be read-only): wrappers (`sudo`,
 * `npx`, `env`, `xargs`, …) are unwrapped, then the program and its subcommand decide. A program or
 * subcommand not listed here is 'unknown'; an empty result means "local only, not a side effect".
 */
import type { SideEffectKind } from '../../../shared/operations';
import { isScratchOrWorkspacePath, type CommandContext } from './workspace-paths';
import { classifyPackageManager, classifyScriptName, TWO_WORD_WRAPPERS } from './package-rules';
import { REMOTE_TOOLS } from './remote-rules';

export type Kinds = SideEffectKind[];
export type ProgramRule = (args: readonly string[], context: CommandContext) => Kinds;

const NONE: Kinds = [];
const UNKNOWN: Kinds = ['unknown'];
const always = (kind: SideEffectKind): ProgramRule => () => [kind];

/** Shell keywords and builtins that start a part without running anything by themselves. */
export const SHELL_KEYWORDS: ReadonlySet<string> = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', '[[', ']]', 'time']);
const HARMLESS = new Set([
  'export', 'set', 'unset', 'local', 'declare', 'typeset', 'readonly', 'read', 'shift', 'alias', 'unalias', ':', 'exit',
  'return', 'wait', 'jobs', 'hash', 'umask', 'trap', 'history', 'clear', 'break', 'continue', 'shopt', 'ulimit',
]);
/** Programs that run the rest of the line as a command of their own (after their options). */
const WRAPPERS: Readonly<Record<string, { readonly valued?: readonly string[] }>> = {
  sudo: { valued: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'] },
  nohup: {},
  nice: { valued: ['-n'] },
  ionice: { valued: ['-c', '-n', '-p'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'] },
  command: {},
  builtin: {},
  exec: {},
  stdbuf: { valued: ['-i', '-o', '-e'] },
  xargs: { valued: ['-n', '-I', '-i', '-L', '-P', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--replace'] },
  npx: { valued: ['-p', '--package', '-c', '--call'] },
  bunx: {},
  pnpx: {},
};

/** File operations: local when every path they name is in the workspace (or a temp file). */
const FILE_OPERATIONS = new Set([
  'cp', 'mv', 'rm', 'mkdir', 'rmdir', 'touch', 'ln', 'chmod', 'tee', 'truncate', 'unlink', 'install', 'tar', 'zip',
  'unzip', 'gzip', 'gunzip', 'bzip2', 'xz', 'patch', 'split', 'shred', 'sed', 'sort', 'find', 'mktemp', 'rsync',
]);

const LOCAL_TOOLS = new Set([
  'tsc', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'pytest', 'py.test', 'nosetests', 'tox', 'nox', 'eslint', 'prettier',
  'biome', 'ruff', 'black', 'isort', 'mypy', 'pyright', 'flake8', 'pylint', 'rustfmt', 'gofmt', 'goimports', 'golangci-lint',
  'shellcheck', 'stylelint', 'cmake', 'ninja', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'clang-format', 'javac',
  'rustc', 'swiftc', 'vite', 'webpack', 'rollup', 'esbuild', 'tsup', 'babel', 'swc', 'jq', 'yq', 'tput', 'nproc', 'lsof',
  'top', 'htop', 'free', 'uptime', 'sha512sum', 'b2sum', 'base64', 'awk', 'gawk', 'paste', 'join', 'fold', 'fmt', 'rev',
  'tac', 'expand', 'unexpand', 'seq', 'yes', 'expr', 'bc', 'dc', 'iconv', 'dos2unix', 'unix2dos', 'cal', 'watchman',
  'playwright-test', 'knip', 'depcheck', 'madge', 'c8', 'nyc', 'istanbul', 'lint-staged', 'commitlint', 'tokei', 'cloc',
]);

/** A subcommand rule: listed subcommands map to kinds; `otherwise` covers the rest. */
function bySubcommand(table: Readonly<Record<string, Kinds>>, otherwise: Kinds, valued: readonly string[] = []): ProgramRule {
  return (args) => {
    const sub = firstOperand(args, valued);
    if (sub === undefined) return otherwise === UNKNOWN ? NONE : otherwise;
    return table[sub] ?? otherwise;
  };
}

/** The first argument that is not an option (skipping the values of options that take one). */
export function firstOperand(args: readonly string[], valued: readonly string[] = []): string | undefined {
  return operands(args, valued)[0];
}

export function operands(args: readonly string[], valued: readonly string[] = []): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      found.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (valued.includes(arg)) i++;
      continue;
    }
    found.push(arg);
  }
  return found;
}

const fileOperation: ProgramRule = (args, context) => {
  if (args.some((arg) => /^-(exec|execdir|ok|okdir)$/.test(arg))) return UNKNOWN; // find -exec runs commands
  // rsync / scp style `host:path` reaches another machine.
  if (args.some((arg) => /^[^/\s]*[^/\s\\]:/.test(arg) && !arg.startsWith('-') && !/^[A-Za-z]:[\\/]/.test(arg))) return ['network'];
  const paths = operands(args).filter((arg) => !/^[0-7]{3,4}$|^[ugoa]*[+=-][rwxXst]*$/.test(arg));
  return paths.every((path) => isScratchOrWorkspacePath(path, context)) ? NONE : UNKNOWN;
};

const PYTHON_LOCAL_MODULES = new Set(['pytest', 'unittest', 'mypy', 'black', 'ruff', 'flake8', 'pylint', 'isort', 'compileall', 'py_compile', 'json.tool', 'doctest', 'coverage', 'tox', 'venv', 'pyright']);

const python: ProgramRule = (args, context) => {
  const module = args[0] === '-m' ? args[1] : undefined;
  if (args.length === 1 && /^(-V|--version)$/.test(args[0]!)) return NONE;
  if (module !== undefined) {
    if (PYTHON_LOCAL_MODULES.has(module)) return NONE;
    if (module === 'pip') return classifyPackageManager('pip', args.slice(2), context) ?? UNKNOWN;
    if (module === 'twine') return firstOperand(args.slice(2)) === 'upload' ? ['publish'] : NONE;
    if (module === 'http.server') return ['network'];
    return UNKNOWN;
  }
  const script = args.find((arg) => !arg.startsWith('-'));
  if (script !== undefined && /(^|\/)manage\.py$/.test(script)) {
    const sub = args[args.indexOf(script) + 1];
    if (sub === undefined || /^(test|check|makemigrations|collectstatic|showmigrations|help)$/.test(sub)) return NONE;
    if (/^(migrate|flush|loaddata|dbshell|sqlflush|createsuperuser)$/.test(sub)) return ['database'];
    return UNKNOWN;
  }
  if (script !== undefined && /(^|\/)setup\.py$/.test(script)) return args.includes('upload') || args.includes('register') ? ['publish'] : NONE;
  return UNKNOWN; // a script or `-c`: could do anything
};

const interpreterVersion =
  (rules: Readonly<Record<string, Kinds>> = {}): ProgramRule =>
  (args) => {
    if (args.length === 1 && /^(-v|-V|--version)$/.test(args[0]!)) return NONE;
    const sub = args[0];
    return (sub !== undefined ? rules[sub] : undefined) ?? UNKNOWN;
  };

const make: ProgramRule = (args) => {
  const targets = operands(args, ['-C', '-f', '-j', '-l', '-o', '-W', '--file', '--directory']).filter((arg) => !arg.includes('='));
  if (args.includes('-C') || args.includes('--directory')) return UNKNOWN; // another folder's Makefile
  const kinds = new Set<SideEffectKind>();
  for (const target of targets.length === 0 ? ['all'] : targets) for (const kind of classifyScriptName(target)) kinds.add(kind);
  return [...kinds];
};

const git: ProgramRule = (args, context) => {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += /^(-C|-c|--git-dir|--work-tree|--namespace)$/.test(args[i]!) ? 2 : 1;
  if (args.slice(0, i).some((arg) => arg === '-C' || arg.startsWith('--git-dir') || arg.startsWith('--work-tree'))) {
    const at = args.indexOf('-C');
    if (at < 0 || !isScratchOrWorkspacePath(args[at + 1] ?? '', context)) return UNKNOWN;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const action = firstOperand(rest);
  switch (sub) {
    case undefined:
      return NONE;
    case 'push':
      return ['git-push'];
    case 'fetch':
    case 'pull':
    case 'clone':
    case 'ls-remote':
      return ['git-remote'];
    case 'remote':
      return action === 'update' || action === 'prune' || (action === 'show' && !rest.includes('-n')) ? ['git-remote'] : NONE;
    case 'submodule':
      return action === undefined || action === 'status' || action === 'foreach' ? (action === 'foreach' ? UNKNOWN : NONE) : ['git-remote'];
    case 'lfs':
      return action === 'push' ? ['git-push'] : action === 'pull' || action === 'fetch' ? ['git-remote'] : NONE;
    case 'svn':
      return action === 'dcommit' ? ['git-push'] : ['git-remote'];
    case 'send-email':
      return ['network'];
    case 'config':
      // --global / --system change the user's or machine's settings, outside the workspace.
      return rest.some((arg) => arg === '--global' || arg === '--system' || arg === '--file' || arg === '-f') ? UNKNOWN : NONE;
    default:
      return GIT_LOCAL.has(sub) ? NONE : UNKNOWN; // aliases and extensions could run anything
  }
};

const GIT_LOCAL = new Set([
  'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'stash', 'merge', 'rebase', 'cherry-pick', 'revert', 'tag',
  'branch', 'mv', 'rm', 'init', 'worktree', 'clean', 'apply', 'am', 'notes', 'gc', 'fsck', 'status', 'diff', 'log', 'show',
  'blame', 'bisect', 'format-patch', 'describe', 'grep', 'shortlog', 'reflog', 'rev-parse', 'ls-files', 'ls-tree',
  'cat-file', 'rev-list', 'merge-base', 'name-rev', 'show-ref', 'for-each-ref', 'count-objects', 'prune', 'repack',
  'update-index', 'update-ref', 'symbolic-ref', 'hash-object', 'write-tree', 'read-tree', 'check-ignore', 'check-attr',
  'sparse-checkout', 'range-diff', 'help', 'version', 'whatchanged', 'mergetool', 'difftool', 'maintenance', 'archive',
  'commit-tree', 'mktree', 'diff-tree', 'diff-files', 'diff-index', 'verify-commit', 'verify-tag', 'request-pull',
]);

export const PROGRAMS: Readonly<Record<string, ProgramRule>> = {
  ...REMOTE_TOOLS,
  git,
  make,
  gmake: make,
  python,
  python3: python,
  py: python,
  node: interpreterVersion({ '--test': NONE, '--check': NONE, '-c': NONE }),
  deno: interpreterVersion({ test: NONE, fmt: NONE, lint: NONE, check: NONE, compile: NONE, info: NONE, doc: NONE }),
  ruby: interpreterVersion(),
  perl: interpreterVersion(),
  java: interpreterVersion(),
  php: interpreterVersion(),
  go: bySubcommand({ build: NONE, test: NONE, vet: NONE, fmt: NONE, version: NONE, env: NONE, list: NONE, doc: NONE, get: ['network'], install: ['network'], mod: ['network'], work: NONE, generate: UNKNOWN, run: UNKNOWN }, UNKNOWN),
  cargo: bySubcommand({ build: NONE, b: NONE, test: NONE, t: NONE, check: NONE, c: NONE, clippy: NONE, fmt: NONE, doc: NONE, clean: NONE, bench: NONE, tree: NONE, metadata: NONE, publish: ['publish'], install: ['network'], add: ['network'], update: ['network'], fetch: ['network'], search: ['network'], yank: ['publish'], owner: ['publish'], login: ['network'], run: UNKNOWN, r: UNKNOWN }, UNKNOWN),
  rustup: bySubcommand({ show: NONE, which: NONE }, ['network']),
  mvn: bySubcommand({ compile: NONE, test: NONE, package: NONE, verify: NONE, install: NONE, clean: NONE, validate: NONE, deploy: ['publish'], 'release:perform': ['publish'] }, UNKNOWN, ['-f', '-pl', '-P', '-D']),
  gradle: bySubcommand({ build: NONE, test: NONE, check: NONE, assemble: NONE, clean: NONE, compileJava: NONE, lint: NONE, publish: ['publish'], publishToMavenCentral: ['publish'] }, UNKNOWN),
  gradlew: bySubcommand({ build: NONE, test: NONE, check: NONE, assemble: NONE, clean: NONE, lint: NONE, publish: ['publish'] }, UNKNOWN),
  dotnet: bySubcommand({ build: NONE, test: NONE, format: NONE, clean: NONE, publish: NONE, pack: NONE, restore: ['network'], add: ['network'], run: UNKNOWN, nuget: ['publish'] }, UNKNOWN),
  swift: bySubcommand({ build: NONE, test: NONE, package: ['network'], run: UNKNOWN }, UNKNOWN),
  playwright: bySubcommand({ test: NONE, 'show-report': NONE, codegen: NONE, install: ['network'] }, UNKNOWN),
  cypress: bySubcommand({ run: NONE, open: NONE, verify: NONE, install: ['network'] }, UNKNOWN),
  turbo: (args) => classifyScriptName(firstOperand(args.slice(args[0] === 'run' ? 1 : 0)) ?? 'build'),
  nx: (args) => classifyScriptName(args[0] === 'run' || args[0] === 'run-many' ? (args.find((arg) => arg.startsWith('--target='))?.slice(9) ?? 'unknown-target') : (args[0] ?? 'build')),
  lerna: bySubcommand({ run: NONE, list: NONE, ls: NONE, changed: NONE, diff: NONE, publish: ['publish'], version: ['git-push'], bootstrap: ['network'] }, UNKNOWN),
  changeset: bySubcommand({ version: NONE, status: NONE, add: NONE, publish: ['publish'] }, NONE),
  'semantic-release': always('publish'),
  goreleaser: bySubcommand({ build: NONE, check: NONE, release: ['publish'] }, ['publish']),
  docker: bySubcommand({ push: ['publish'], pull: ['network'], login: ['network'], logout: ['network'], search: ['network'], build: ['network'], ps: NONE, images: NONE, inspect: NONE, logs: NONE, version: NONE, info: NONE }, UNKNOWN),
  podman: bySubcommand({ push: ['publish'], pull: ['network'], login: ['network'], build: ['network'], ps: NONE, images: NONE, inspect: NONE, logs: NONE, version: NONE }, UNKNOWN),
  twine: bySubcommand({ upload: ['publish'], check: NONE }, UNKNOWN),
  gem: bySubcommand({ push: ['publish'], yank: ['publish'], build: NONE, list: NONE, install: ['network'], update: ['network'] }, UNKNOWN),
  vsce: bySubcommand({ publish: ['publish'], package: NONE, ls: NONE }, UNKNOWN),
  ovsx: bySubcommand({ publish: ['publish'] }, UNKNOWN),
  gh: (args) => (args[0] === 'release' && /^(create|upload|delete|edit)$/.test(args[1] ?? '') ? ['publish'] : args[0] === '--version' || args[0] === 'help' ? NONE : ['network']),
  bash: () => UNKNOWN,
  sh: () => UNKNOWN,
  zsh: () => UNKNOWN,
  eval: () => UNKNOWN,
  source: () => UNKNOWN,
  '.': () => UNKNOWN,
};

/** Classifies one simple command's words (the line's read-only check already failed). */
export function classifyProgram(words: readonly string[], context: CommandContext): Kinds {
  let at = 0;
  for (;;) {
    while (at < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!) || SHELL_KEYWORDS.has(words[at]!))) at++;
    const word = words[at];
    if (word === undefined) return NONE;
    if (word === 'for' || word === 'select') return NONE; // `for NAME in WORDS`: the words are data
    if (word === 'case' || word === 'function' || word.includes('$')) return UNKNOWN; // a program named by a variable or substitution
    const program = word.includes('/') ? word.slice(word.lastIndexOf('/') + 1) : word;
    // `./deploy.sh`, `bin/tool`: a script of the workspace, which could do anything.
    if (word.includes('/') && !/^(\/usr)?\/s?bin\/|node_modules\/\.bin\//.test(word)) return UNKNOWN;
    const args = words.slice(at + 1);
    if (program === 'env') {
      at += 1 + args.findIndex((arg) => !arg.startsWith('-') && !arg.includes('='));
      if (at <= 0 || args.every((arg) => arg.startsWith('-') || arg.includes('='))) return NONE;
      continue;
    }
    const wrapper = WRAPPERS[program];
    if (wrapper !== undefined) {
      const rest = firstOperand(args, wrapper.valued);
      if (rest === undefined) return NONE;
      let skip = args.indexOf(rest);
      // `timeout 10 cmd`, `nice 5 cmd`: the duration comes before the command.
      if ((program === 'timeout' || program === 'nice') && /^\d/.test(rest)) skip = args.indexOf(firstOperand(args.slice(skip + 1), wrapper.valued) ?? '', skip + 1);
      if (skip < 0) return NONE;
      at += 1 + skip;
      continue;
    }
    const pair = TWO_WORD_WRAPPERS[program];
    const sub = pair === undefined ? undefined : firstOperand(args, ['-p', '--package', '-n', '--name', '--filter', '-F', '-C', '--dir', '--with']);
    if (sub !== undefined && pair!.includes(sub)) {
      const rest = args.slice(args.indexOf(sub) + 1);
      const command = firstOperand(rest, ['-p', '--package', '-n', '--name', '--with']);
      if (command === undefined) return NONE;
      at += 2 + args.indexOf(sub) + rest.indexOf(command);
      continue;
    }
    if (HARMLESS.has(program)) return NONE;
    if (LOCAL_TOOLS.has(program)) return NONE;
    if (FILE_OPERATIONS.has(program)) return fileOperation(args, context);
    const packageKinds = classifyPackageManager(program, args, context);
    if (packageKinds !== undefined) return packageKinds;
    const rule = PROGRAMS[program];
    return rule === undefined ? UNKNOWN : rule(args, context);
  }
}
