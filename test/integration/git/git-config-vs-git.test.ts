/** The config reader that finds core.excludesFile parses files as `git config --file F --list` does. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGitConfig } from '../../../electron/git/git-config';
import { gitAvailable, NO_GIT, tempDir } from './git-fixture';

const CONFIGS: readonly string[] = [
  '[core]\n\texcludesFile = ~/.gitignore_global\n',
  '[core]\n\tflag\n\tx = "a b" c  d ; comment\n\ty = tab\\there # and a comment\n',
  '[Sec "Sub \\"q\\""]\n\tKey = v\\\n continued\n[old.Sub]\nk=1\n',
  '\ufeff[core] excludesfile = same-line.txt\n',
  '[core]\r\n\texcludesFile = crlf\r\n\tother = "quoted ; not a comment # either"\r\n',
  '# comment\n; another\n[include]\n\tpath = x.inc\n[includeIf "gitdir:~/work/"]\n\tpath = work.inc\n[CORE]\n\tEXCLUDESFILE=  spaced   out   \n',
  // git refuses these two files whole; Arbor keeps the entries before the bad line (KEPT_ON_ERROR)
  '[core]\n\ta = "unterminated\n\tb = after\n',
  '[core]\n\ta = 1\n\tb = bad \\q escape\n\tc = never\n',
  '[core]\n\ta = "esc \\\\ \\" \\n"\n[a.b.c]\n\td = e\n[x "y z"]\n\tw = "  keep  "\n',
];

const KEPT_ON_ERROR: Readonly<Record<number, readonly { name: string; value: string | null }[]>> = { 6: [], 7: [{ name: 'core.a', value: '1' }] };

function gitList(file: string): { name: string; value: string | null }[] | 'error' {
  const result = spawnSync('git', ['config', '--file', file, '--null', '--list'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' } });
  if (result.status !== 0) return 'error';
  return result.stdout
    .split('\0')
    .filter((item) => item !== '')
    .map((item) => {
      const newline = item.indexOf('\n');
      return newline < 0 ? { name: item, value: null } : { name: item.slice(0, newline), value: item.slice(newline + 1) };
    });
}

describe.skipIf(!gitAvailable)(`git config files, against git config --list${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
  const temp = tempDir('git-config');
  afterAll(() => temp.remove());

  it.each(CONFIGS.map((text, i) => [i, text] as const))('config %i parses as git parses it', (i, text) => {
    const file = join(temp.path, `config-${i}`);
    writeFileSync(file, text);
    const expected = gitList(file);
    const parsed = parseGitConfig(text);
    expect(expected === 'error' ? i in KEPT_ON_ERROR : !(i in KEPT_ON_ERROR)).toBe(true);
    expect(parsed).toEqual(expected === 'error' ? KEPT_ON_ERROR[i] : expected);
  });
});
