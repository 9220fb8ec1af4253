/**
 * Programs that reach other machines: network clients, databases and deploy tools. A read that only
 * contacts a remote (kubectl get, terraform plan) is 'network'; anything that changes remote state is
 * 'deploy' or 'database'.
 */
import type { SideEffectKind } from '../../../shared/operations';
import type { CommandContext } from './workspace-paths';

type Kinds = SideEffectKind[];
type ProgramRule = (args: readonly string[], context: CommandContext) => Kinds;

const NONE: Kinds = [];
const always = (kind: SideEffectKind): ProgramRule => () => [kind];
const firstWord = (args: readonly string[]): string | undefined => args.find((arg) => !arg.startsWith('-'));

/** Subcommands in `local` change nothing remote, in `read` only look; the rest is `otherwise`. */
function remote(otherwise: SideEffectKind, read: readonly string[], local: readonly string[] = []): ProgramRule {
  return (args) => {
    const sub = firstWord(args);
    if (sub === undefined) return args.some((arg) => /^(--version|-v|--help|-h)$/.test(arg)) ? NONE : [otherwise];
    if (local.includes(sub)) return NONE;
    return read.includes(sub) ? ['network'] : [otherwise];
  };
}

const network = always('network');
const database = always('database');
const deploy = always('deploy');

/** CLI tools of cloud providers: list/describe/get verbs only read. */
const cloud: ProgramRule = (args) => {
  const verbs = args.filter((arg) => !arg.startsWith('-'));
  if (verbs.length === 0 || verbs[0] === 'help' || verbs[0] === 'version' || verbs[0] === 'configure' || verbs[0] === 'config') return NONE;
  return verbs.slice(0, 4).some((verb) => /^(describe|list|get|ls|show|whoami)(-|$)/.test(verb)) ? ['network'] : ['deploy'];
};

const KUBECTL_READ = ['get', 'describe', 'logs', 'explain', 'api-resources', 'api-versions', 'top', 'diff', 'cluster-info', 'auth', 'events', 'wait', 'port-forward', 'exec', 'cp'];

const prisma: ProgramRule = (args) => {
  const sub = firstWord(args);
  if (sub === undefined || /^(generate|format|validate|init|version|-v|--version|debug)$/.test(sub)) return NONE;
  return ['database']; // migrate, db push/pull/seed/execute, studio
};

const migrationTool =
  (local: RegExp): ProgramRule =>
  (args) => {
    const sub = firstWord(args);
    return sub !== undefined && local.test(sub) ? NONE : ['database'];
  };

export const REMOTE_TOOLS: Readonly<Record<string, ProgramRule>> = {
  curl: network,
  wget: network,
  http: network,
  https: network,
  xh: network,
  httpie: network,
  aria2c: network,
  ssh: network,
  scp: network,
  sftp: network,
  mosh: network,
  telnet: network,
  nc: network,
  ncat: network,
  netcat: network,
  socat: network,
  ftp: network,
  ping: network,
  dig: network,
  nslookup: network,
  host: network,
  traceroute: network,
  whois: network,
  psql: database,
  mysql: database,
  mariadb: database,
  sqlite3: database,
  sqlite: database,
  mongo: database,
  mongosh: database,
  mongodump: database,
  mongorestore: database,
  'redis-cli': database,
  cqlsh: database,
  'clickhouse-client': database,
  pg_dump: database,
  pg_restore: database,
  pg_dumpall: database,
  mysqldump: database,
  influx: database,
  duckdb: database,
  alembic: migrationTool(/^(history|current|heads|show|branches|check|revision)$/),
  flyway: migrationTool(/^(info|validate)$/),
  liquibase: migrationTool(/^(status|validate|history)$/),
  dbmate: migrationTool(/^(new|status|dump)$/),
  knex: migrationTool(/^(migrate:make|seed:make|init)$/),
  sequelize: migrationTool(/^(migration:generate|model:generate|seed:generate|init)$/),
  typeorm: migrationTool(/^(migration:create|migration:generate|entity:create|init|version)$/),
  'drizzle-kit': migrationTool(/^(generate|check|up|introspect:.*)$/),
  diesel: database,
  sqlx: database,
  prisma,
  supabase: remote('deploy', ['status', 'projects', 'secrets'], ['start', 'stop', 'init', 'gen', 'link']),
  rails: (args) => (args.some((arg) => arg.startsWith('db:')) ? ['database'] : /^(test|t|routes|about|version|g|generate)$/.test(firstWord(args) ?? '') ? NONE : ['unknown']),
  rake: (args) => (args.some((arg) => arg.startsWith('db:')) ? ['database'] : args.some((arg) => /deploy/.test(arg)) ? ['deploy'] : ['unknown']),
  kubectl: remote('deploy', KUBECTL_READ, ['version', 'config', 'completion', 'kustomize', 'help', 'plugin']),
  oc: remote('deploy', KUBECTL_READ, ['version', 'config', 'completion', 'help']),
  terraform: remote('deploy', ['plan', 'init', 'refresh', 'output', 'show', 'state', 'providers', 'graph', 'console', 'get', 'login'], ['fmt', 'validate', 'version', 'workspace', 'help', '-help']),
  tofu: remote('deploy', ['plan', 'init', 'refresh', 'output', 'show', 'state', 'providers', 'graph', 'console', 'get'], ['fmt', 'validate', 'version', 'workspace', 'help']),
  helm: remote('deploy', ['list', 'ls', 'status', 'get', 'history', 'repo', 'search', 'pull', 'fetch', 'dependency', 'dep', 'show', 'inspect', 'registry'], ['template', 'lint', 'package', 'version', 'create', 'env', 'help', 'completion']),
  fly: remote('deploy', ['status', 'logs', 'apps', 'info', 'auth', 'releases', 'ips', 'regions', 'dashboard', 'platform'], ['version', 'help']),
  flyctl: remote('deploy', ['status', 'logs', 'apps', 'info', 'auth', 'releases', 'ips', 'regions', 'dashboard', 'platform'], ['version', 'help']),
  vercel: remote('deploy', ['ls', 'list', 'logs', 'inspect', 'whoami', 'login', 'env', 'pull', 'link', 'domains', 'projects'], ['dev', 'build', 'help', '--version']),
  netlify: remote('network', ['status', 'logs', 'open', 'login', 'link', 'sites:list', 'env:list'], ['dev', 'build', 'help']),
  heroku: remote('deploy', ['logs', 'apps', 'info', 'ps', 'config', 'releases', 'login', 'auth:whoami', 'status'], ['help', 'version', 'local']),
  firebase: remote('network', ['projects:list', 'login', 'use'], ['emulators:start', 'emulators:exec', 'init', 'help', 'serve']),
  wrangler: remote('deploy', ['whoami', 'login', 'tail', 'kv:key', 'kv:namespace'], ['dev', 'init', 'types', 'help', 'generate']),
  railway: remote('deploy', ['status', 'logs', 'login', 'whoami', 'list', 'link', 'variables'], ['help', 'init']),
  serverless: remote('deploy', ['info', 'logs', 'print', 'login'], ['package', 'offline', 'help', 'invoke:local']),
  sls: remote('deploy', ['info', 'logs', 'print', 'login'], ['package', 'offline', 'help', 'invoke:local']),
  cdk: remote('deploy', ['diff', 'ls', 'list', 'doctor', 'context', 'bootstrap:status'], ['synth', 'synthesize', 'init', 'docs', 'acknowledge', 'notices']),
  pulumi: remote('deploy', ['preview', 'stack', 'config', 'whoami', 'login', 'about', 'logs'], ['version', 'help', 'new']),
  skaffold: remote('deploy', ['diagnose'], ['build', 'render', 'fix', 'init', 'version', 'config', 'dev']),
  'ansible-playbook': (args) => (args.includes('--check') || args.includes('--syntax-check') || args.includes('--list-hosts') ? ['network'] : ['deploy']),
  ansible: deploy,
  eb: remote('deploy', ['status', 'health', 'logs', 'list', 'events', 'printenv'], ['init', 'local']),
  aws: cloud,
  gcloud: cloud,
  gsutil: cloud,
  az: cloud,
  doctl: cloud,
  oci: cloud,
};
