/**
 * Package managers and project scripts: installs download (network), `publish` publishes, known local
 * script names (build, test, lint, …) are local, a script named for a deploy, release or migration is that,
 * and any other script is 'unknown' — a script can run anything.
 */
import type { SideEffectKind } from '../../../shared/operations';
import type { CommandContext } from './workspace-paths';

type Kinds = SideEffectKind[];
const NONE: Kinds = [];
const UNKNOWN: Kinds = ['unknown'];

const LOCAL_SCRIPTS = new Set([
  'all', 'build', 'test', 'tests', 'lint', 'typecheck', 'type-check', 'types', 'tsc', 'check', 'format', 'fmt', 'compile',
  'clean', 'coverage', 'cover', 'bench', 'benchmark', 'watch', 'dev', 'start', 'serve', 'preview', 'e2e', 'unit',
  'integration', 'verify', 'prebuild', 'postbuild', 'pretest', 'posttest', 'docs', 'storybook', 'prettier', 'eslint',
  'vitest', 'jest', 'validate', 'bundle', 'package', 'dist',
]);

/** What running a project script (npm run X, make X, turbo X) may do, judged by its name. */
export function classifyScriptName(name: string): Kinds {
  const words = name.toLowerCase().split(/[:\-_.\s/]+/).filter((word) => word !== '');
  if (words.some((word) => /^(deploy|deployment|ship)$/.test(word))) return ['deploy'];
  if (words.some((word) => /^(publish|release|upload)$/.test(word))) return ['publish'];
  if (words.some((word) => /^(migrate|migration|migrations|seed|db|database)$/.test(word))) return ['database'];
  return words[0] !== undefined && LOCAL_SCRIPTS.has(words[0]) ? NONE : UNKNOWN;
}

const NODE_INSTALLS = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'uninstall', 'remove', 'rm', 'r', 'un', 'dedupe', 'audit', 'outdated', 'view', 'v', 'info', 'show', 'search', 's', 'login', 'logout', 'whoami', 'ping', 'create', 'fund', 'doctor', 'install-test', 'it', 'import', 'fetch']);
const NODE_PUBLISH = new Set(['publish', 'unpublish', 'deprecate', 'dist-tag', 'owner', 'access', 'team', 'org', 'star']);
const NODE_LOCAL = new Set(['test', 't', 'tst', 'start', 'stop', 'restart', 'ls', 'list', 'll', 'la', 'root', 'bin', 'prefix', 'explain', 'why', 'pack', 'version', 'rebuild', 'cache', 'help', 'prune', 'config', 'c', 'get', 'pkg', 'set-script', 'exec', 'x', 'dlx', 'query', 'licenses']);
const NODE_VALUED = ['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--cwd', '--registry', '--tag', '--loglevel'];

function nodePackageManager(program: string, args: readonly string[]): Kinds {
  const operands = operandsOf(args, NODE_VALUED);
  let sub = operands[0];
  if (sub === undefined) return program === 'npm' ? NONE : ['network']; // bare `yarn` / `pnpm` installs
  if (program === 'yarn' && sub === 'npm') sub = operands[1] === 'publish' ? 'publish' : 'whoami';
  if (program === 'yarn' && sub === 'workspace') return nodePackageManager(program, operands.slice(2));
  if (sub === 'init') return operands.length > 1 ? ['network'] : NONE; // `npm init vite` downloads a starter
  if (NODE_PUBLISH.has(sub)) return ['publish'];
  if (NODE_INSTALLS.has(sub)) return ['network'];
  if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') return operands[1] === undefined ? NONE : classifyScriptName(operands[1]);
  if (NODE_LOCAL.has(sub)) return NONE;
  // `yarn build`, `pnpm lint`, `bun test`: a script of package.json (npm has no such shorthand).
  return program === 'npm' ? UNKNOWN : classifyScriptName(sub);
}

function bun(args: readonly string[]): Kinds {
  const sub = operandsOf(args, NODE_VALUED)[0];
  if (sub === undefined) return NONE;
  if (sub === 'test' || sub === 'build' || sub === 'pm') return NONE;
  if (sub === 'publish') return ['publish'];
  if (/^(install|i|add|a|remove|rm|update|upgrade|link|create|init)$/.test(sub)) return ['network'];
  const script = sub === 'run' ? operandsOf(args, NODE_VALUED)[1] : sub;
  // `bun run src/tool.ts` runs a file: could do anything.
  return script === undefined ? NONE : /[./]/.test(script) ? UNKNOWN : classifyScriptName(script);
}

const PYTHON_LOCAL = /^(list|show|freeze|check|config|debug|inspect|hash|cache|help|--version|-V)$/;

function pip(args: readonly string[]): Kinds {
  const sub = operandsOf(args, ['-r', '-c', '-e', '-t', '--target', '-i', '--index-url'])[0];
  if (sub === undefined) return NONE;
  if (/^(install|download|wheel|index|search)$/.test(sub)) return ['network'];
  return PYTHON_LOCAL.test(sub) ? NONE : UNKNOWN; // uninstall changes an environment outside the workspace
}

function pythonProject(args: readonly string[]): Kinds {
  const sub = operandsOf(args, [])[0];
  if (sub === undefined) return NONE;
  if (sub === 'publish') return ['publish'];
  if (sub === 'pip') return pip(args.slice(args.indexOf('pip') + 1));
  if (/^(install|add|remove|update|lock|sync|self|init|new|tool|python)$/.test(sub)) return ['network'];
  if (/^(build|check|show|env|version|tree|venv|export|help|fmt|format|shell|--version)$/.test(sub)) return NONE;
  return UNKNOWN;
}

function systemPackages(args: readonly string[]): Kinds {
  const sub = operandsOf(args, [])[0];
  if (sub === undefined || /^(list|info|show|policy|--version|-v|doctor|config|leaves|deps|outdated)$/.test(sub)) return NONE;
  return ['network'];
}

function composer(args: readonly string[]): Kinds {
  const sub = operandsOf(args, ['-d', '--working-dir'])[0];
  if (sub === undefined || /^(validate|dump-autoload|dumpautoload|show|info|licenses|check-platform-reqs|--version)$/.test(sub)) return NONE;
  if (/^(install|require|update|upgrade|remove|create-project|outdated|search)$/.test(sub)) return ['network'];
  if (sub === 'run-script' || sub === 'run') return classifyScriptName(operandsOf(args, [])[1] ?? '');
  return UNKNOWN;
}

function operandsOf(args: readonly string[], valued: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (valued.includes(arg)) i++;
      continue;
    }
    found.push(arg);
  }
  return found;
}

/** undefined when the program is not a package manager. */
export function classifyPackageManager(program: string, args: readonly string[], _context: CommandContext): Kinds | undefined {
  switch (program) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return nodePackageManager(program, args);
    case 'bun':
      return bun(args);
    case 'pip':
    case 'pip3':
    case 'pipx':
      return pip(args);
    case 'uv':
    case 'poetry':
    case 'pdm':
    case 'hatch':
    case 'pipenv':
    case 'rye':
      return pythonProject(args);
    case 'conda':
    case 'mamba':
    case 'micromamba':
    case 'apt':
    case 'apt-get':
    case 'brew':
    case 'yum':
    case 'dnf':
    case 'pacman':
    case 'apk':
    case 'port':
    case 'choco':
    case 'winget':
    case 'scoop':
    case 'snap':
      return systemPackages(args);
    case 'composer':
      return composer(args);
    default:
      return undefined;
  }
}

/** `pnpm exec X`, `uv run X`, `bundle exec X`: the part after the pair is the command that runs. */
export const TWO_WORD_WRAPPERS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  bun: ['x'],
  uv: ['run'],
  poetry: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  pipenv: ['run'],
  rye: ['run'],
  bundle: ['exec'],
  conda: ['run'],
};
