/**
 * Which requests do something a second time when repeated (a commit, a push, a publish, an issue opened, a POST),
 * and what makes two of them "the same": a key per effect kind — program, subcommand and the arguments that
 * identify the effect (a commit's message, a push's remote and refs, an issue's title). The rules are data;
 * `replayKeys` applies them to a shell command or a tool call.
 *
 * Not replay hazards, by decision: reads (git status/log, gh issue list, `curl` GET or HEAD, MCP get/list/search
 * tools) and idempotent writes whose second run changes nothing (`kubectl apply`, `terraform apply` of one
 * plan are left out too: their effect converges). `curl`/`wget`/httpie POST, PUT, PATCH and DELETE are hazards.
 * A value the command computes when it runs (`-m "$(cat <<EOF …)"`) is unknown until then: the key takes the
 * whole command line instead, so only the same line counts as the same request.
 */
import { parseShell, SUBSTITUTION, type SimpleCommand } from './shell-parse';

/** One kind of effect that doing twice does twice. */
export interface ReplayRule {
  /** Its name in the ledger ('git commit'). */
  readonly effect: string;
  readonly programs: readonly string[];
  /** The subcommand words that name it, after the program's global options (`['issue', 'create']`). */
  readonly command: readonly string[];
  /** Options that take a value, alias → the name the key uses. */
  readonly valued?: Readonly<Record<string, string>>;
  /** Options without a value that change the effect, alias → the name the key uses. */
  readonly flags?: Readonly<Record<string, string>>;
  /** What identifies the effect: option names (as above) and `operands` (the words that are not options). */
  readonly identity: readonly string[];
  /** Options of the program that come before the subcommand and take a value (`git -C dir`). */
  readonly globalValued?: readonly string[];
}

const GIT_GLOBAL = ['-C', '-c', '--git-dir', '--work-tree', '--namespace'];
const GH_REPO = { '-R': 'repo', '--repo': 'repo' };

export const REPLAY_RULES: readonly ReplayRule[] = [
  {
    effect: 'git commit',
    programs: ['git'],
    command: ['commit'],
    globalValued: GIT_GLOBAL,
    valued: { '-m': 'message', '--message': 'message', '-F': 'file', '--file': 'file', '-C': 'reuse', '--reuse-message': 'reuse', '--author': 'author', '--fixup': 'fixup', '--squash': 'squash' },
    flags: { '--amend': 'amend', '--allow-empty': 'allow-empty', '-a': 'all', '--all': 'all' },
    identity: ['message', 'file', 'reuse', 'fixup', 'squash', 'amend', 'allow-empty', 'all', 'operands'],
  },
  {
    effect: 'git push',
    programs: ['git'],
    command: ['push'],
    globalValued: GIT_GLOBAL,
    valued: { '--repo': 'repo', '-o': 'push-option', '--push-option': 'push-option' },
    flags: { '-f': 'force', '--force': 'force', '--force-with-lease': 'force', '--tags': 'tags', '--all': 'all', '--mirror': 'all', '-d': 'delete', '--delete': 'delete' },
    identity: ['repo', 'operands', 'force', 'tags', 'all', 'delete', 'push-option'],
  },
  {
    effect: 'git lfs push',
    programs: ['git'],
    command: ['lfs', 'push'],
    globalValued: GIT_GLOBAL,
    identity: ['operands'],
  },
  ...['npm', 'pnpm', 'bun'].map((program) => publishRule(`${program} publish`, [program], ['publish'])),
  publishRule('yarn publish', ['yarn'], ['publish']),
  publishRule('yarn publish', ['yarn'], ['npm', 'publish']),
  publishRule('npm unpublish', ['npm'], ['unpublish']),
  publishRule('npm deprecate', ['npm'], ['deprecate']),
  publishRule('npm dist-tag', ['npm', 'pnpm', 'yarn'], ['dist-tag']),
  { effect: 'cargo publish', programs: ['cargo'], command: ['publish'], valued: { '-p': 'package', '--package': 'package', '--manifest-path': 'manifest' }, identity: ['package', 'manifest'] },
  { effect: 'cargo yank', programs: ['cargo'], command: ['yank'], valued: { '--version': 'version', '--vers': 'version' }, flags: { '--undo': 'undo' }, identity: ['operands', 'version', 'undo'] },
  { effect: 'package upload', programs: ['twine'], command: ['upload'], valued: { '-r': 'repository', '--repository': 'repository' }, identity: ['repository', 'operands'] },
  ...['poetry', 'uv', 'pdm', 'hatch'].map((program) => publishRule(`${program} publish`, [program], ['publish'])),
  { effect: 'gem push', programs: ['gem'], command: ['push'], identity: ['operands'] },
  { effect: 'image push', programs: ['docker', 'podman'], command: ['push'], identity: ['operands'] },
  { effect: 'extension publish', programs: ['vsce', 'ovsx'], command: ['publish'], identity: ['operands'] },
  { effect: 'changeset publish', programs: ['changeset'], command: ['publish'], valued: { '--tag': 'tag' }, identity: ['tag'] },
  { effect: 'lerna publish', programs: ['lerna'], command: ['publish'], identity: ['operands'] },
  { effect: 'gh release create', programs: ['gh'], command: ['release', 'create'], valued: { ...GH_REPO, '-t': 'title', '--title': 'title', '--target': 'target' }, identity: ['repo', 'operands', 'title', 'target'] },
  { effect: 'gh release upload', programs: ['gh'], command: ['release', 'upload'], valued: GH_REPO, identity: ['repo', 'operands'] },
  { effect: 'gh issue create', programs: ['gh'], command: ['issue', 'create'], valued: { ...GH_REPO, '-t': 'title', '--title': 'title' }, identity: ['repo', 'title'] },
  {
    effect: 'gh pr create',
    programs: ['gh'],
    command: ['pr', 'create'],
    valued: { ...GH_REPO, '-t': 'title', '--title': 'title', '-B': 'base', '--base': 'base', '-H': 'head', '--head': 'head' },
    identity: ['repo', 'title', 'base', 'head'],
  },
  ...(['issue', 'pr'] as const).map((thing) => ({
    effect: `gh ${thing} comment`,
    programs: ['gh'],
    command: [thing, 'comment'],
    valued: { ...GH_REPO, '-b': 'body', '--body': 'body', '-F': 'body-file', '--body-file': 'body-file' },
    identity: ['repo', 'operands', 'body', 'body-file'],
  })),
  { effect: 'gh pr merge', programs: ['gh'], command: ['pr', 'merge'], valued: GH_REPO, identity: ['repo', 'operands'] },
  { effect: 'gh issue close', programs: ['gh'], command: ['issue', 'close'], valued: GH_REPO, identity: ['repo', 'operands'] },
  { effect: 'kubectl create', programs: ['kubectl', 'oc'], command: ['create'], valued: { '-f': 'file', '--filename': 'file', '-n': 'namespace', '--namespace': 'namespace' }, identity: ['namespace', 'file', 'operands'] },
  { effect: 'deploy', programs: ['vercel'], command: ['deploy'], identity: ['operands'] },
  { effect: 'deploy', programs: ['fly', 'flyctl'], command: ['deploy'], identity: ['operands'] },
  { effect: 'deploy', programs: ['firebase'], command: ['deploy'], identity: ['operands'] },
  { effect: 'deploy', programs: ['wrangler'], command: ['deploy'], identity: ['operands'] },
  { effect: 'deploy', programs: ['netlify'], command: ['deploy'], flags: { '--prod': 'prod' }, identity: ['prod', 'operands'] },
];

function publishRule(effect: string, programs: readonly string[], command: readonly string[]): ReplayRule {
  return { effect, programs, command, valued: { '--tag': 'tag', '--registry': 'registry', '--otp': 'otp', '--access': 'access', '-r': 'repository', '--repository': 'repository' }, identity: ['operands', 'tag', 'registry'] };
}

/** HTTP methods that change something: a second request does it again. GET, HEAD and OPTIONS only read. */
const WRITING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** MCP tools named for a change (create_issue, send_message, …) are hazards; read-named ones (get_, list_, search_) are not. */
const MCP_WRITE_VERB = /(^|[_\-.])(create|add|post|send|publish|insert|update|upsert|delete|remove|merge|push|comment|write|execute|run|submit|close|open|assign|reply|deploy|transfer|pay|charge|book|schedule|invite|upload)([_\-.]|$)/i;
const MCP_READ_VERB = /^(get|list|search|read|fetch|find|query|describe|show|view|lookup|count|check|status|resolve)([_\-.]|$)/i;

/** SQL that changes a database: a second run inserts, deletes or alters again. */
const WRITING_SQL = /\b(insert|update|delete|merge|create|drop|alter|truncate|grant|revoke|replace|upsert|copy)\b/i;
const SQL_CLIENTS: Readonly<Record<string, readonly string[]>> = { psql: ['-c', '--command'], mysql: ['-e', '--execute'], mariadb: ['-e', '--execute'], sqlite3: [], duckdb: ['-c'] };

/** One effect a request asked for, with the key two requests of it share. */
export interface ReplayKey {
  readonly effect: string;
  readonly key: string;
}

/** The keys of the non-idempotent effects a shell command line requests (none for reads and local steps). */
export function shellReplayKeys(command: string): ReplayKey[] {
  const parsed = parseShell(command);
  const keys: ReplayKey[] = [];
  const line = command.replace(/\s+/g, ' ').trim();
  for (const simple of parsed.commands) {
    const key = simpleCommandKey(simple, line);
    if (key !== null && !keys.some((known) => known.key === key.key)) keys.push(key);
  }
  return keys;
}

/** The keys of a tool call that is not a shell command (MCP tools). */
export function toolReplayKeys(name: string, input: unknown): ReplayKey[] {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  if (match === null) return [];
  const tool = match[2]!;
  if (MCP_READ_VERB.test(tool) || !MCP_WRITE_VERB.test(tool)) return [];
  return [{ effect: `${match[1]}/${tool}`, key: `mcp\0${name}\0${canonicalJson(input)}` }];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Wrappers that run the rest of the line (their options skipped): the effect is the wrapped command's. */
const WRAPPERS: Readonly<Record<string, readonly string[]>> = { sudo: ['-u', '-g'], env: [], command: [], nohup: [], time: [], timeout: ['-s', '-k'], npx: ['-p', '--package'], exec: [] };

function simpleCommandKey(simple: SimpleCommand, line: string): ReplayKey | null {
  const first = simple.words.findIndex((word) => !ASSIGNMENT.test(word));
  let words = first < 0 ? [] : simple.words.slice(first);
  for (let guard = 0; guard < 8 && words.length > 0; guard++) {
    const program = baseName(words[0]!);
    const valued = WRAPPERS[program];
    if (valued === undefined) break;
    let at = 1;
    while (at < words.length && (words[at]!.startsWith('-') || ASSIGNMENT.test(words[at]!) || (program === 'timeout' && /^\d/.test(words[at]!)))) at += valued.includes(words[at]!) ? 2 : 1;
    words = words.slice(at);
  }
  if (words.length === 0) return null;
  const program = baseName(words[0]!);
  const args = words.slice(1);
  const http = httpKey(program, args);
  if (http !== undefined) return http === null ? null : withLine(http, args, line);
  const sql = sqlKey(program, args);
  if (sql !== null) return withLine(sql, args, line);
  for (const rule of REPLAY_RULES) {
    if (!rule.programs.includes(program)) continue;
    const rest = afterCommand(args, rule);
    if (rest === null) continue;
    return withLine({ effect: rule.effect, key: `${rule.effect}\0${identityOf(rest, rule)}` }, args, line);
  }
  return null;
}

/** A value computed when the command runs makes the argument unknown: the whole line is the key then. */
function withLine(key: ReplayKey, args: readonly string[], line: string): ReplayKey {
  return args.some((arg) => arg.includes(SUBSTITUTION)) ? { effect: key.effect, key: `${key.effect}\0line\0${line}` } : key;
}

const baseName = (word: string): string => (word.includes('/') ? word.slice(word.lastIndexOf('/') + 1) : word);

/** The arguments after the rule's subcommand words (global options skipped), or null when the command is another. */
function afterCommand(args: readonly string[], rule: ReplayRule): string[] | null {
  let at = 0;
  while (at < args.length && args[at]!.startsWith('-')) at += rule.globalValued?.includes(args[at]!) ? 2 : 1;
  for (const word of rule.command) {
    if (args[at] !== word) return null;
    at++;
  }
  return args.slice(at);
}

/** `name=value` parts of the rule's identity, in its order; option bundles (`-am`) and `--name=value` understood. */
function identityOf(args: readonly string[], rule: ReplayRule): string {
  const valued = rule.valued ?? {};
  const flags = rule.flags ?? {};
  const values = new Map<string, string[]>();
  const add = (name: string, value: string) => values.set(name, [...(values.get(name) ?? []), normalise(value)]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (const operand of args.slice(i + 1)) add('operands', operand);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      add('operands', arg);
      continue;
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (equals > 0) {
      const name = valued[arg.slice(0, equals)] ?? flags[arg.slice(0, equals)];
      if (name !== undefined) add(name, arg.slice(equals + 1));
      continue;
    }
    if (valued[arg] !== undefined) {
      add(valued[arg]!, args[++i] ?? '');
      continue;
    }
    if (flags[arg] !== undefined) {
      add(flags[arg]!, 'yes');
      continue;
    }
    // `-am msg`: flags bundled, the last letter may take the next word (or the rest of the bundle: `-mmsg`).
    if (/^-[A-Za-z]{2,}/.test(arg) && !arg.startsWith('--')) {
      for (let at = 1; at < arg.length; at++) {
        const option = `-${arg[at]}`;
        if (valued[option] !== undefined) {
          add(valued[option]!, at + 1 < arg.length ? arg.slice(at + 1) : (args[++i] ?? ''));
          break;
        }
        if (flags[option] !== undefined) add(flags[option]!, 'yes');
      }
    }
  }
  return rule.identity.map((name) => `${name}=${(values.get(name) ?? []).join('\u0001')}`).join('\0');
}

const normalise = (value: string): string => value.replace(/\s+/g, ' ').trim();

/** curl / wget / httpie: the method decides (undefined: not an HTTP client; null: a read, no hazard). */
function httpKey(program: string, args: readonly string[]): ReplayKey | null | undefined {
  if (program === 'curl') {
    let method: string | null = null;
    let data = false;
    const bodies: string[] = [];
    let url: string | null = null;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-X' || arg === '--request') method = (args[++i] ?? '').toUpperCase();
      else if (/^-X./.test(arg)) method = arg.slice(2).toUpperCase();
      else if (arg.startsWith('--request=')) method = arg.slice(10).toUpperCase();
      else if (/^(-d|--data|--data-raw|--data-binary|--data-urlencode|--json|-F|--form|--form-string)$/.test(arg)) {
        data = true;
        bodies.push(normalise(args[++i] ?? ''));
      } else if (/^(-T|--upload-file)$/.test(arg)) {
        method ??= 'PUT';
        bodies.push(normalise(args[++i] ?? ''));
      } else if (arg === '-I' || arg === '--head') method = 'HEAD';
      else if (/^(-H|--header|-o|--output|-u|--user|-A|--user-agent|-e|--referer|-b|--cookie|-c|--cookie-jar|-m|--max-time|-w|--write-out|--connect-timeout|--retry|-x|--proxy|--url)$/.test(arg)) {
        if (arg === '--url') url ??= args[i + 1] ?? null;
        i++;
      } else if (!arg.startsWith('-')) url ??= arg;
    }
    const verb = method ?? (data ? 'POST' : 'GET');
    if (!WRITING_METHODS.has(verb)) return null;
    return { effect: `${verb} request`, key: `http\0${verb}\0${url ?? ''}\0${bodies.join('\u0001')}` };
  }
  if (program === 'wget') {
    const method = args.find((arg) => arg.startsWith('--method='))?.slice(9).toUpperCase() ?? (args.some((arg) => /^--(post-data|post-file|body-data|body-file)/.test(arg)) ? 'POST' : 'GET');
    if (!WRITING_METHODS.has(method)) return null;
    const url = args.find((arg) => /^[a-z]+:\/\//i.test(arg)) ?? '';
    return { effect: `${method} request`, key: `http\0${method}\0${url}\0${args.filter((arg) => /^--(post|body)-/.test(arg)).map(normalise).join('\u0001')}` };
  }
  if (program === 'http' || program === 'https' || program === 'xh') {
    const operands = args.filter((arg) => !arg.startsWith('-'));
    const explicit = operands[0] !== undefined && /^[A-Z]+$/.test(operands[0]) ? operands[0] : null;
    const rest = explicit === null ? operands : operands.slice(1);
    const items = rest.slice(1);
    const method = explicit ?? (items.some((item) => /^[^=:]+(=|:=|@)/.test(item)) ? 'POST' : 'GET');
    if (!WRITING_METHODS.has(method)) return null;
    return { effect: `${method} request`, key: `http\0${method}\0${rest[0] ?? ''}\0${items.map(normalise).join('\u0001')}` };
  }
  return undefined;
}

/** A database client given SQL that writes: the same statement against the same database is the same effect. */
function sqlKey(program: string, args: readonly string[]): ReplayKey | null {
  const options = SQL_CLIENTS[program];
  if (options === undefined) return null;
  let sql: string | null = null;
  const target: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options.includes(arg)) sql = args[++i] ?? '';
    else if (!arg.startsWith('-')) target.push(arg);
  }
  // sqlite3 DB "SQL": the statement is the last operand.
  if (sql === null && program === 'sqlite3' && target.length >= 2) sql = target.pop()!;
  if (sql === null || !WRITING_SQL.test(sql)) return null;
  return { effect: `${program} write`, key: `sql\0${program}\0${target.map(normalise).join(' ')}\0${normalise(sql)}` };
}

/** JSON with its keys sorted, so two inputs that say the same thing compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(typeof value === 'string' ? normalise(value) : (value ?? null));
}
