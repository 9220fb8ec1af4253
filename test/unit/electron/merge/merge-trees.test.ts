import { describe, expect, it } from 'vitest';
import type { SnapshotStore } from '../../../../electron/git/object-store';
import { combineTrees, EMPTY_TREE, MergeBlobs, reconstructedTree, workspacePath, type TreeView } from '../../../../electron/merge/merge-trees';
import type { NodeState, StateFile } from '../../../../electron/service/workspace-state';
import type { TreeFile } from '../../../../shared/merge';
import type { NodeSummary } from '../../../../shared/model';

const file = (oid: string): TreeFile => ({ oid, mode: '100644' });

/** An exact view knows every path; a partial one only `known` (a reconstruction's touched files). */
function view(files: Record<string, string>, known?: readonly string[]): TreeView {
  const map = new Map(Object.entries(files).map(([path, oid]) => [path, file(oid)]));
  if (known === undefined) return { files: map, knows: () => true, paths: [...map.keys()] };
  const set = new Set(known);
  return { files: map, knows: (path) => set.has(path), paths: set };
}

describe('combineTrees', () => {
  it('passes exact trees through', () => {
    const combined = combineTrees(view({ a: '1' }), null, view({ a: '2' }), view({ a: '1', b: '3' }));
    expect(combined.base).toEqual(new Map([['a', file('1')]]));
    expect(combined.ours).toEqual(new Map([['a', file('2')]]));
    expect(combined.theirs).toEqual(new Map([['a', file('1')], ['b', file('3')]]));
  });

  it('a side that does not know a path left it as the base had it', () => {
    const combined = combineTrees(view({ a: '1' }), null, view({ b: '2' }, ['b']), view({ a: '3', b: '4' }));
    expect(combined.ours.get('a')).toEqual(file('1'));
    expect(combined.ours.get('b')).toEqual(file('2'));
  });

  it('a base that does not know a path falls back to the fork tree, else counts it absent', () => {
    const base = view({ touched: '1' }, ['touched', 'deleted']);
    const fork = view({ untouched: '5', deleted: '9' });
    const ours = view({ touched: '1', untouched: '5' });
    const theirs = view({ touched: '2', untouched: '6', other: '7' });
    const withFork = combineTrees(base, fork, ours, theirs);
    expect(withFork.base.get('untouched')).toEqual(file('5'));
    // The reconstruction knows `deleted` was absent: that wins over the fork tree.
    expect(withFork.base.has('deleted')).toBe(false);
    const without = combineTrees(base, null, ours, theirs);
    expect(without.base.has('untouched')).toBe(false);
    expect(without.base.has('other')).toBe(false);
  });

  it('when neither a side nor the base knows a path, the side is taken to agree with the other side', () => {
    const combined = combineTrees(view({}, []), null, view({}, []), view({ x: '1' }));
    expect(combined.ours.get('x')).toEqual(file('1'));
    expect(combined.theirs.get('x')).toEqual(file('1'));
  });

  it('an empty base (no common ancestor) knows that nothing was there', () => {
    const combined = combineTrees(EMPTY_TREE, null, view({ a: '1' }), view({ a: '2' }));
    expect(combined.base.size).toBe(0);
  });
});

describe('workspacePath', () => {
  it('is relative with / separators, null outside the root', () => {
    expect(workspacePath('/w', '/w/src/a.ts')).toBe('src/a.ts');
    expect(workspacePath('/w', '/other/a.ts')).toBeNull();
    expect(workspacePath('/w', '/w')).toBeNull();
  });
});

describe('reconstructedTree', () => {
  /** A reconstructed state of three touched files under /w: known, in doubt since a shell command, and stale. */
  function state(): NodeState {
    const texts = new Map([['/w/known.txt', 'k\n'], ['/w/doubt.txt', 'd\n'], ['/w/stale.txt', 's\n']]);
    const doubts = new Map<string, StateFile>([
      ['/w/doubt.txt', { known: 'unknown', since: 'n2', reason: 'shell', replayed: 'd\n' }],
      ['/w/stale.txt', { known: 'unknown', since: 'n1', reason: 'changed-outside-transcript', replayed: 's\n' }],
    ]);
    return {
      node: { id: 'n3' } as NodeSummary,
      known: 'unknown',
      unknownSince: 'n2',
      paths: () => [...texts.keys()],
      content: (path) => texts.get(path) ?? null,
      fileOf: (path) => doubts.get(path) ?? { known: 'reconstructed', blob: null },
      bytesOf: () => null,
    };
  }

  it('a merge took a file’s stale replay as a side’s known file: it does not know it; a replay only in doubt it keeps', () => {
    const tree = reconstructedTree(state(), '/w', new MergeBlobs(null as unknown as SnapshotStore));
    expect(tree.knows('stale.txt')).toBe(false);
    expect(tree.files.has('stale.txt')).toBe(false);
    expect(tree.knows('doubt.txt')).toBe(true);
    expect(tree.knows('known.txt')).toBe(true);
    expect([...tree.paths].sort()).toEqual(['doubt.txt', 'known.txt']);
  });
});
