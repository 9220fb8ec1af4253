/** A small merge for the merge view's tests: one text file with two conflicts, one clean file, one binary conflict. */
import type { MergeFileSides, MergePreview } from '../../../../shared/operations';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

export const APP_BASE = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven');
export const APP_OURS = lines('one', 'TWO-ours', 'three', 'four', 'five', 'SIX-ours', 'seven');
export const APP_THEIRS = lines('one', 'TWO-theirs', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven');

export function mergePreview(over: Partial<MergePreview> = {}): MergePreview {
  return {
    token: 'token-1',
    base: 'node-base',
    baseLabel: 'Make the numbers louder',
    ours: {
      nodeId: 'node-ours',
      label: 'fork A',
      sessionTitle: 'Numbers demo',
      dir: '/work/fork-a',
      messages: [
        { nodeId: 'o1', kind: 'user', timestamp: null, text: 'Make two louder', files: [] },
        { nodeId: 'o2', kind: 'tool_call', timestamp: null, text: 'Edit src/app.ts', files: ['src/app.ts'] },
      ],
    },
    theirs: {
      nodeId: 'node-theirs',
      label: 'fork B',
      sessionTitle: 'Numbers demo',
      dir: '/work/fork-b',
      messages: [{ nodeId: 't1', kind: 'tool_call', timestamp: null, text: 'Write README.md', files: ['README.md'] }],
    },
    into: '/work/fork-a',
    files: [
      { path: 'README.md', status: 'clean', changedBy: 'theirs', conflicts: 0 },
      { path: 'src/app.ts', status: 'conflicted', changedBy: 'both', conflict: 'content', conflicts: 2 },
      { path: 'logo.png', status: 'conflicted', changedBy: 'both', conflict: 'binary', conflicts: 0, binary: true },
    ],
    conflicted: 2,
    ...over,
  };
}

export function fileSides(path: string): MergeFileSides {
  switch (path) {
    case 'src/app.ts':
      return { path, base: APP_BASE, ours: APP_OURS, theirs: APP_THEIRS, binary: false, merged: null };
    case 'README.md':
      return { path, base: 'hello\n', ours: 'hello\n', theirs: 'hello world\n', binary: false, merged: 'hello world\n' };
    default:
      return { path, base: null, ours: null, theirs: null, binary: true, merged: null };
  }
}

export { lines };
