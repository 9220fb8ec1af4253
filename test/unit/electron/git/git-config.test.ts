import { describe, expect, it } from 'vitest';
import { configFiles, expandPath, lastValue, parseGitConfig, xdgConfigPath } from '../../../../electron/git/git-config';

describe('where git reads its config (config.c do_git_config_sequence)', () => {
  it('system, XDG, ~/.gitconfig, then the repository', () => {
    expect(configFiles({ home: '/h', env: {} }, '/r/.git')).toEqual(['/etc/gitconfig', '/h/.config/git/config', '/h/.gitconfig', '/r/.git/config']);
  });

  it('GIT_CONFIG_NOSYSTEM wins over GIT_CONFIG_SYSTEM; GIT_CONFIG_GLOBAL replaces both global files ("" none)', () => {
    expect(configFiles({ home: '/h', env: { GIT_CONFIG_NOSYSTEM: 'yes', GIT_CONFIG_SYSTEM: '/s', GIT_CONFIG_GLOBAL: '/g' } }, undefined)).toEqual(['/g']);
    expect(configFiles({ home: '/h', env: { GIT_CONFIG_NOSYSTEM: '0', GIT_CONFIG_SYSTEM: '/s', GIT_CONFIG_GLOBAL: '' } }, undefined)).toEqual(['/s']);
  });

  it('an empty XDG_CONFIG_HOME is unset; no home, no home files', () => {
    expect(xdgConfigPath('ignore', { home: '/h', env: { XDG_CONFIG_HOME: '' } })).toBe('/h/.config/git/ignore');
    expect(xdgConfigPath('ignore', { home: '/h', env: { XDG_CONFIG_HOME: '/x' } })).toBe('/x/git/ignore');
    expect(configFiles({ home: undefined, env: { GIT_CONFIG_NOSYSTEM: '1' } }, undefined)).toEqual([]);
  });

  it('expands ~ and ~/ only', () => {
    expect(expandPath('~/a', '/h')).toBe('/h/a');
    expect(expandPath('~', '/h')).toBe('/h');
    expect(expandPath('~bob/a', '/h')).toBeUndefined();
    expect(expandPath('rel/~x', '/h')).toBe('rel/~x');
    expect(expandPath('~/a', undefined)).toBeUndefined();
  });

  it('takes the last value, skipping a key without one', () => {
    const entries = parseGitConfig('[core]\n\texcludesFile = a\n[core]\n\texcludesFile = b\n\texcludesFile\n[core "sub"]\n\texcludesFile = c\n');
    expect(lastValue(entries, 'core.excludesfile')).toBe('b');
    expect(lastValue(entries, 'core.sub.excludesfile')).toBe('c');
  });
});
