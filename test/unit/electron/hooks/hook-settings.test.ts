import { describe, expect, it } from 'vitest';
import {
  HOOK_MATCHER,
  hookCommandLine,
  isArborHookCommand,
  shellQuote,
  withArborHook,
  withoutArborHook,
  type JsonObject,
} from '../../../../electron/hooks/hook-settings';

const COMMAND = hookCommandLine(['/usr/bin/node', '/opt/arbor/bin/arbor.cjs'], '/home/u/.config/Arbor');

const userSettings: JsonObject = {
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
    PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }],
  },
  permissions: { allow: ['Bash(npm test)'] },
};

describe('hookCommandLine', () => {
  it('runs this CLI with its data folder, quoted for the shell', () => {
    expect(COMMAND).toBe('/usr/bin/node /opt/arbor/bin/arbor.cjs --data-dir /home/u/.config/Arbor snapshot --hook');
    expect(hookCommandLine(['/usr/bin/node', "/home/o'neil/my arbor/bin/arbor.cjs"], '/d')).toBe(
      `/usr/bin/node '/home/o'\\''neil/my arbor/bin/arbor.cjs' --data-dir /d snapshot --hook`,
    );
    expect(shellQuote('$(rm -rf ~)')).toBe(`'$(rm -rf ~)'`);
  });

  it('recognises Arbor’s commands and nothing else', () => {
    expect(isArborHookCommand(COMMAND)).toBe(true);
    expect(isArborHookCommand('arbor snapshot --hook')).toBe(true);
    expect(isArborHookCommand('prettier --write')).toBe(false);
    expect(isArborHookCommand('other-tool snapshot --hook')).toBe(false);
    expect(isArborHookCommand(42)).toBe(false);
  });
});

describe('withArborHook / withoutArborHook', () => {
  it('adds one group after the user’s own and removes exactly it', () => {
    const installed = withArborHook(userSettings, COMMAND);
    const post = (installed.hooks as JsonObject).PostToolUse as readonly JsonObject[];
    expect(post).toHaveLength(2);
    expect(post[0]).toEqual((userSettings.hooks as JsonObject).PostToolUse![0 as never]);
    expect(post[1]).toEqual({ matcher: HOOK_MATCHER, hooks: [{ type: 'command', command: COMMAND, timeout: 30 }] });
    expect(Object.keys(installed)).toEqual(['model', 'hooks', 'permissions']);
    const removed = withoutArborHook(installed);
    expect(removed.removed).toBe(1);
    expect(JSON.stringify(removed.settings)).toBe(JSON.stringify(userSettings));
  });

  it('does not duplicate when installed twice, and replaces an entry with another data folder', () => {
    const once = withArborHook(userSettings, COMMAND);
    expect(withArborHook(once, COMMAND)).toBe(once);
    const moved = withArborHook(once, COMMAND.replace('/home/u/.config/Arbor', '/elsewhere'));
    const post = (moved.hooks as JsonObject).PostToolUse as readonly JsonObject[];
    expect(post).toHaveLength(2);
    expect(JSON.stringify(post[1])).toContain('/elsewhere');
  });

  it('removes the containers it created when they are left empty', () => {
    const installed = withArborHook({ theme: 'dark' }, COMMAND);
    expect(Object.keys(installed)).toEqual(['theme', 'hooks']);
    expect(withoutArborHook(installed).settings).toEqual({ theme: 'dark' });
    const withOtherEvent = withArborHook({ hooks: { Stop: [] } }, COMMAND);
    expect(withoutArborHook(withOtherEvent).settings).toEqual({ hooks: { Stop: [] } });
  });

  it('keeps another tool’s entry that shares a group with Arbor’s', () => {
    const shared: JsonObject = { hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'fmt' }, { type: 'command', command: COMMAND }] }] } };
    const { settings, removed } = withoutArborHook(shared);
    expect(removed).toBe(1);
    expect(settings).toEqual({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'fmt' }] }] } });
  });

  it('refuses settings whose hooks are not shaped as Claude Code expects, and leaves them alone on removal', () => {
    expect(() => withArborHook({ hooks: [] }, COMMAND)).toThrow(/"hooks" is not an object/);
    expect(() => withArborHook({ hooks: { PostToolUse: {} } }, COMMAND)).toThrow(/not a list/);
    const odd: JsonObject = { hooks: 'none' };
    expect(withoutArborHook(odd)).toEqual({ settings: odd, removed: 0 });
  });
});
