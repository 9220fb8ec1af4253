/**
 * `arbor hook install|uninstall` on real settings files in a temp home: user level (~/.claude or
 * $CLAUDE_CONFIG_DIR) and project level, round trips that give the same bytes back, no duplicates, and
 * settings that are not valid JSON refused untouched.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, lstatSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_MATCHER } from '../../../electron/hooks/hook-settings';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
let home: string;
let dataDir: string;

const BIN = resolve(__dirname, '../../../bin/arbor.cjs');

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCliCaptured(['--data-dir', dataDir, 'hook', ...args], { cwd: root, homeDir: home, env });
}

const USER_SETTINGS = `${JSON.stringify(
  {
    model: 'opus',
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
      PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write "$FILE"' }] }],
    },
    permissions: { allow: ['Bash(npm test)'], deny: [] },
  },
  null,
  2,
)}\n`;

interface Settings {
  hooks?: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
  [key: string]: unknown;
}
const readSettings = (file: string): Settings => JSON.parse(readFileSync(file, 'utf8')) as Settings;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-hook-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  mkdirSync(home);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor hook install / uninstall (user level)', () => {
  it('adds one PostToolUse group running this CLI, keeps everything else, and uninstalls to the same bytes', async () => {
    const file = join(home, '.claude/settings.json');
    mkdirSync(join(home, '.claude'));
    writeFileSync(file, USER_SETTINGS);

    const install = await cli(['install']);
    expect(install).toMatchObject({ code: 0, stderr: '' });
    expect(install.stdout).toContain(file);
    const installed = readSettings(file);
    const original = JSON.parse(USER_SETTINGS) as Settings;
    expect(installed.model).toBe('opus');
    expect(installed.permissions).toEqual(original.permissions);
    expect(installed.hooks!.PreToolUse).toEqual(original.hooks!.PreToolUse);
    const post = installed.hooks!.PostToolUse!;
    expect(post).toHaveLength(2);
    expect(post[0]).toEqual(original.hooks!.PostToolUse![0]);
    expect(post[1]!.matcher).toBe(HOOK_MATCHER);
    const command = post[1]!.hooks[0]!.command;
    expect(command).toContain(process.execPath);
    expect(command).toContain(BIN);
    expect(command).toContain(`--data-dir ${dataDir}`);
    expect(command.endsWith(' snapshot --hook')).toBe(true);

    const bytes = readFileSync(file);
    const twice = await cli(['install']);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toMatch(/already installed/);
    expect(readFileSync(file)).toEqual(bytes);

    const uninstall = await cli(['uninstall']);
    expect(uninstall).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(USER_SETTINGS);
    const again = await cli(['uninstall']);
    expect(again.stdout).toMatch(/was not installed/);
    expect(readFileSync(file, 'utf8')).toBe(USER_SETTINGS);
  });

  it('uses $CLAUDE_CONFIG_DIR, creates the settings when there are none, and uninstalls to no settings', async () => {
    const configDir = join(root, 'claude-config');
    const file = join(configDir, 'settings.json');
    expect((await cli(['install'], { CLAUDE_CONFIG_DIR: configDir })).code).toBe(0);
    expect(readSettings(file).hooks!.PostToolUse).toHaveLength(1);
    expect(existsSync(join(home, '.claude/settings.json')) && readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe(USER_SETTINGS);
    expect((await cli(['uninstall'], { CLAUDE_CONFIG_DIR: configDir })).code).toBe(0);
    expect(readSettings(file)).toEqual({});
  });

  it('writes through a symlinked settings file (dotfile managers), keeping the link', async () => {
    const dotfiles = join(root, 'dotfiles');
    const configDir = join(root, 'linked-config');
    mkdirSync(dotfiles);
    mkdirSync(configDir);
    writeFileSync(join(dotfiles, 'claude-settings.json'), '{\n  "theme": "dark"\n}\n');
    symlinkSync(join(dotfiles, 'claude-settings.json'), join(configDir, 'settings.json'));
    expect((await cli(['install'], { CLAUDE_CONFIG_DIR: configDir })).code).toBe(0);
    expect(lstatSync(join(configDir, 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readSettings(join(dotfiles, 'claude-settings.json')).hooks!.PostToolUse).toHaveLength(1);
    expect((await cli(['uninstall'], { CLAUDE_CONFIG_DIR: configDir })).code).toBe(0);
    expect(readFileSync(join(dotfiles, 'claude-settings.json'), 'utf8')).toBe('{\n  "theme": "dark"\n}\n');
  });

  it('refuses a settings.json that is not valid JSON and leaves it as it was', async () => {
    const configDir = join(root, 'broken-config');
    mkdirSync(configDir);
    const broken = '{\n  "model": "opus",\n  // a comment Claude Code would reject too\n}\n';
    writeFileSync(join(configDir, 'settings.json'), broken);
    for (const action of ['install', 'uninstall']) {
      const run = await cli([action], { CLAUDE_CONFIG_DIR: configDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not valid JSON.*\[BAD_REQUEST\]\n$/);
      expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe(broken);
    }
    writeFileSync(join(configDir, 'settings.json'), '{"hooks": ["odd"]}');
    const odd = await cli(['install'], { CLAUDE_CONFIG_DIR: configDir });
    expect(odd.code).toBe(1);
    expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe('{"hooks": ["odd"]}');
  });

  it('is bad usage without an action or with an unknown one', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['reinstall'])).code).toBe(2);
  });
});

describe('arbor hook install --project DIR', () => {
  it('uses DIR/.claude/settings.json and keeps its indentation and line endings', async () => {
    const project = join(root, 'project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const file = join(project, '.claude/settings.json');
    const tabbed = '{\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{\r\n\t\t\t\t"hooks": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t"type": "command",\r\n\t\t\t\t\t\t"command": "say done"\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}';
    writeFileSync(file, tabbed);
    const install = await runCliCaptured(['--data-dir', dataDir, 'hook', 'install', '--project', 'project'], { cwd: root, homeDir: home });
    expect(install.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\r\n\t\t"PostToolUse": [');
    expect(readSettings(file).hooks!.Stop).toHaveLength(1);
    expect((await runCliCaptured(['--data-dir', dataDir, 'hook', 'uninstall', '--project', project], { cwd: root, homeDir: home })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(tabbed);
  });

  it('creates the project’s .claude folder when needed and leaves the user’s settings alone', async () => {
    const project = join(root, 'fresh-project');
    mkdirSync(project);
    const user = readFileSync(join(home, '.claude/settings.json'), 'utf8');
    expect((await runCliCaptured(['--data-dir', dataDir, 'hook', 'install', '--project', project], { cwd: root, homeDir: home })).code).toBe(0);
    expect(readSettings(join(project, '.claude/settings.json')).hooks!.PostToolUse![0]!.matcher).toBe(HOOK_MATCHER);
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe(user);
  });
});
