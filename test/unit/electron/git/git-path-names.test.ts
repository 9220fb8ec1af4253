import { describe, expect, it } from 'vitest';
import { isRefusedGitPath } from '../../../../electron/git/git-path-names';
import { atDepth, GIT_PATH_CASES } from './git-path-cases';

describe('names git refuses (verify_path with protectHFS and protectNTFS)', () => {
  it.each(GIT_PATH_CASES)('$path (symlink: $symlink) → refused: $refused', ({ path, refused, symlink }) => {
    expect(isRefusedGitPath(path, { symlink: symlink === true })).toBe(refused);
  });

  it.each(GIT_PATH_CASES.filter((c) => c.symlink !== true))('$path is decided the same at any depth', ({ path, refused }) => {
    expect(isRefusedGitPath(atDepth(path))).toBe(refused);
    expect(isRefusedGitPath(`a/b/c/${path}`)).toBe(refused);
  });

  it('refuses a NUL anywhere', () => {
    expect(isRefusedGitPath('a\0b')).toBe(true);
  });

  it('refuses a symlinked dot file only where the link is (a regular .gitignore is fine)', () => {
    expect(isRefusedGitPath('src/.gitignore')).toBe(false);
    expect(isRefusedGitPath('src/.gitignore', { symlink: true })).toBe(true);
    expect(isRefusedGitPath('src/.gitignorex', { symlink: true })).toBe(false);
  });
});
