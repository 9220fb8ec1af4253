/** The folder in force at a line, from `relocated` and `worktree-state` records (issue 13). */
import { describe, expect, it } from 'vitest';
import { folderChanges, folderInForce, movedFrom, type FolderRecord } from '../../../../electron/snapshots/folders/folders-in-force';

const FILE = '/p/s.jsonl';
const relocated = (line: number, to: string): FolderRecord => ({ type: 'relocated', file: FILE, line, raw: JSON.stringify({ type: 'relocated', relocatedCwd: to }) });
const worktree = (line: number, state: { originalCwd: string; worktreePath: string } | null): FolderRecord => ({
  type: 'worktree-state', file: FILE, line, raw: JSON.stringify({ type: 'worktree-state', worktreeSession: state }),
});

describe('folders in force', () => {
  it('relocated: lines after it are in the new folder, lines before (or in another file) in the session\'s own', () => {
    const changes = folderChanges([relocated(5, '/b'), relocated(9, '/c')]);
    expect(folderInForce(changes, FILE, 3)).toBeNull();
    expect(folderInForce(changes, FILE, 6)).toBe('/b');
    expect(folderInForce(changes, FILE, 10)).toBe('/c');
    expect(folderInForce(changes, '/p/other.jsonl', 10)).toBeNull();
    expect(movedFrom(changes, FILE, 10, '/a')).toEqual(['/b', '/a']);
  });

  it('worktree-state: entering sets the worktree, null goes back to originalCwd; a worktree is not a move', () => {
    const changes = folderChanges([relocated(2, '/b'), worktree(4, { originalCwd: '/b', worktreePath: '/b/.claude/worktrees/x' }), worktree(8, null)]);
    expect(folderInForce(changes, FILE, 5)).toBe('/b/.claude/worktrees/x');
    expect(movedFrom(changes, FILE, 5, '/a')).toEqual([]);
    expect(folderInForce(changes, FILE, 9)).toBe('/b');
  });

  it('a damaged or unknown folder record changes nothing', () => {
    const changes = folderChanges([{ type: 'relocated', file: FILE, line: 2, raw: '{"type":"reloc' }, { type: 'worktree-state', file: FILE, line: 3, raw: '{"worktreeSession":{"x":1}}' }]);
    expect(changes).toEqual([]);
  });
});
