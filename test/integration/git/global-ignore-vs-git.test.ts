/**
 * Regression: the global excludes file (core.excludesFile, by default ~/.config/git/ignore) was not read, so
 * files git ignores through it were captured by snapshots (and a rewind to such a snapshot deleted or rewrote
 * them). Capture and the operations' ignore check are compared with `git ls-files --others --cached
 * --exclude-standard` run with the same injected HOME and XDG_CONFIG_HOME, over the ways git finds the file.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import type { GitEnvironment } from '../../../electron/git/ignore-files';
import { SnapshotStore } from '../../../electron/git/object-store';
import { listSnapshotFiles } from '../../../electron/git/tree-read';
import { createIgnoreCheck } from '../../../electron/operations/path-checks';
import { gitAvailable, NO_GIT, tempDir } from './git-fixture';

const WORKSPACE_FILES = [
  'a.txt', 'debug.log', 'keep.log', 'info.log', 'build/out.o', 'build/readme.txt', '.env', 'secret/key.pem', 'src/x.swp', 'src/main.ts',
  'notes.md', '.idea/workspace.xml', 'deep/a/b/c.tmp', 'deep/a/b/d.txt', 'from-include.bak', 'relative.cache', 'system.sys',
];

interface Scenario {
  readonly name: string;
  /** Files to write, relative to the temp folder (`home/…`, `xdg/…`, `workspace/…`, `elsewhere/…`). */
  readonly files: Readonly<Record<string, string>>;
  /** Environment beyond HOME (paths relative to the temp folder start with `@/`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Git ignores nothing here (the scenario checks that no default file is read instead). */
  readonly ignoresNothing?: true;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'the default ~/.config/git/ignore', files: { 'home/.config/git/ignore': '*.log\n.env\n.idea/\n' } },
  {
    name: '$XDG_CONFIG_HOME/git/ignore (and not ~/.config/git/ignore then)',
    files: { 'xdg/git/ignore': '*.swp\nsecret/\n', 'home/.config/git/ignore': '*.txt\n' },
    env: { XDG_CONFIG_HOME: '@/xdg' },
  },
  { name: 'core.excludesFile in ~/.gitconfig, with ~/ expanded', files: { 'home/.gitconfig': '[core]\n\texcludesFile = ~/global-ignore\n', 'home/global-ignore': 'build/\n*.tmp\n' } },
  {
    name: 'core.excludesFile in the XDG config, overridden by ~/.gitconfig (later wins)',
    files: {
      'xdg/git/config': '[core]\n\texcludesfile = ~/first\n',
      'home/.gitconfig': '# the user\'s\n[CORE]\n  ExcludesFile = "~/second" ; trailing comment\n',
      'home/first': '*.txt\n',
      'home/second': '*.md\n',
    },
    env: { XDG_CONFIG_HOME: '@/xdg' },
  },
  {
    name: 'core.excludesFile in the XDG config alone',
    files: { 'xdg/git/config': '[core]\n\texcludesfile = ~/from-xdg\n', 'home/from-xdg': '*.pem\nnotes.md\n' },
    env: { XDG_CONFIG_HOME: '@/xdg' },
  },
  {
    name: 'GIT_CONFIG_GLOBAL instead of ~/.gitconfig',
    files: { 'home/.gitconfig': '[core]\n\texcludesFile = ~/not-this\n', 'home/not-this': '*\n', 'elsewhere/config': '[core]\n\texcludesFile = ~/this\n', 'home/this': '*.o\n' },
    env: { GIT_CONFIG_GLOBAL: '@/elsewhere/config' },
  },
  {
    name: '[include] path, relative to the including file',
    files: { 'home/.gitconfig': '[include]\n\tpath = conf/extra.inc\n', 'home/conf/extra.inc': '[core]\n\texcludesFile = ~/inc-ignore\n', 'home/inc-ignore': '*.bak\n' },
  },
  {
    name: "the repository's .git/config with a relative path (from the worktree)",
    files: { 'home/.gitconfig': '[core]\n\texcludesFile = ~/loses\n', 'home/loses': '*\n', 'workspace/.git/config': '[core]\n\texcludesFile = ignore-here\n', 'workspace/ignore-here': '*.cache\n' },
  },
  { name: 'GIT_CONFIG_SYSTEM', files: { 'elsewhere/system': '[core]\n\texcludesFile = ~/sys-ignore\n', 'home/sys-ignore': '*.sys\n' }, env: { GIT_CONFIG_SYSTEM: '@/elsewhere/system', GIT_CONFIG_NOSYSTEM: '0' } },
  { name: 'an empty core.excludesFile (no global file at all)', files: { 'home/.gitconfig': '[core]\n\texcludesFile =\n', 'home/.config/git/ignore': '*.log\n' }, ignoresNothing: true },
  {
    name: 'precedence: every .gitignore and info/exclude rank above the global file',
    files: {
      'home/.config/git/ignore': '*.log\n*.tmp\n!a.txt\n',
      'workspace/.gitignore': '!keep.log\na.txt\n',
      'workspace/.git/info/exclude': '!info.log\n',
      'workspace/deep/.gitignore': '!*.tmp\n',
    },
  },
];

function gitIn(cwd: string, args: readonly string[], env: Readonly<Record<string, string>>): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', ...env } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

describe.skipIf(!gitAvailable)(`the global excludes file, against git ls-files --exclude-standard${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir('global-ignore');
  });
  afterEach(() => temp.remove());

  it.each(SCENARIOS)('$name: capture and the ignore check keep exactly the files git does', async ({ files, env = {}, ignoresNothing }) => {
    const home = join(temp.path, 'home');
    const workspace = join(temp.path, 'workspace');
    mkdirSync(home);
    mkdirSync(workspace);
    const resolvedEnv = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replace(/^@/, temp.path)]));
    const gitEnv = { HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...resolvedEnv };
    gitIn(workspace, ['init', '-q'], gitEnv);
    for (const path of WORKSPACE_FILES) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), `${path}\n`);
    }
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(temp.path, path)), { recursive: true });
      writeFileSync(join(temp.path, path), content);
    }
    const expected = gitIn(workspace, ['ls-files', '-z', '--others', '--cached', '--exclude-standard'], gitEnv).split('\0').filter((p) => p !== '').sort();

    const git: GitEnvironment = { home, env: gitEnv };
    const store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    try {
      const captured = await captureDirectory(store, workspace, { git });
      expect(listSnapshotFiles(store, captured.treeOid).map((file) => file.path).sort()).toEqual(expected);
    } finally {
      store.close();
    }
    const ignored = createIgnoreCheck(workspace, git);
    const all = [...WORKSPACE_FILES, ...Object.keys(files).filter((p) => p.startsWith('workspace/') && !p.startsWith('workspace/.git/')).map((p) => p.slice('workspace/'.length))];
    expect(all.filter((path) => !ignored(path)).sort()).toEqual(expected);
    // Each scenario but one ignores something through the global file (else it would test nothing).
    if (ignoresNothing) expect(expected.length).toBe(all.length);
    else expect(expected.length).toBeLessThan(all.length);
  });

  it('without the git environment, only the repository rules apply (tests never read the real home)', async () => {
    const workspace = join(temp.path, 'workspace');
    mkdirSync(join(temp.path, 'home/.config/git'), { recursive: true });
    writeFileSync(join(temp.path, 'home/.config/git/ignore'), '*.log\n');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'debug.log'), 'x\n');
    expect(createIgnoreCheck(workspace)('debug.log')).toBe(false);
    expect(createIgnoreCheck(workspace, { home: join(temp.path, 'home'), env: {} })('debug.log')).toBe(true);
  });
});
