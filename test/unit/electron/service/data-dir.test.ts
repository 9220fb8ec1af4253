import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir } from '../../../../electron/service/data-dir';

describe('defaultDataDir (Electron userData for "Arbor")', () => {
  it('follows each platform', () => {
    expect(defaultDataDir('linux', {}, '/home/u')).toBe('/home/u/.config/Arbor');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u')).toBe('/x/cfg/Arbor');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/Arbor');
    expect(defaultDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/Arbor');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Roaming\\Arbor');
    expect(defaultDataDir('win32', {}, 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Roaming\\Arbor');
  });
});

describe('resolveDataDir', () => {
  const base = { platform: 'linux' as const, homeDir: '/home/u', cwd: '/work' };
  it('prefers --data-dir, then ARBOR_DATA_DIR, then the default', () => {
    expect(resolveDataDir({ ...base, flag: '/flag', env: { ARBOR_DATA_DIR: '/env' } })).toBe('/flag');
    expect(resolveDataDir({ ...base, env: { ARBOR_DATA_DIR: '/env' } })).toBe('/env');
    expect(resolveDataDir({ ...base, env: { ARBOR_DATA_DIR: '' } })).toBe('/home/u/.config/Arbor');
    expect(resolveDataDir({ ...base, env: {} })).toBe('/home/u/.config/Arbor');
  });
  it('resolves relative folders against the working directory', () => {
    expect(resolveDataDir({ ...base, flag: 'data', env: {} })).toBe('/work/data');
  });
});
