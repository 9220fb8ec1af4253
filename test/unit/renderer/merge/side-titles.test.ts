import { describe, expect, it } from 'vitest';
import type { MergeSide } from '../../../../shared/operations';
import { firstWords, mergeTitles, shortNodeId } from '../../../../renderer/src/merge/side-titles';
import { mergePreview } from './merge-fixtures';

const side = (over: Partial<MergeSide>): MergeSide => ({ nodeId: 'node', label: 'label', sessionTitle: null, dir: null, messages: [], ...over });

describe('merge titles', () => {
  it('names a fork folder by its folder, as it is now, with the full path and node in the tooltip', () => {
    const titles = mergeTitles(mergePreview());
    expect(titles.ours.title).toBe('Folder fork-a — current contents');
    expect(titles.theirs.title).toBe('Folder fork-b — current contents');
    expect([titles.ours.short, titles.theirs.short]).toEqual(['Folder fork-a', 'Folder fork-b']);
    expect(titles.ours.tooltip.split('\n')[0]).toBe('/work/fork-a');
    expect(titles.ours.detail).toBe('node node-ou · session “Numbers demo”');
  });

  it('names a node by its short id and the first words of its prompt, with its session', () => {
    const nodeId = '3f2a9c1d-0000-4000-8000-000000000000';
    const titles = mergeTitles(
      mergePreview({ ours: side({ nodeId, label: 'Document --top and --json in the README, with an example for each flag', sessionTitle: 'tally' }) }),
    );
    expect(titles.ours.title).toBe('Node 3f2a9c1 · Document --top and --json in the README, with…');
    expect(titles.ours.detail).toBe('session “tally”');
    expect(titles.ours.tooltip).toContain(nodeId);
  });

  it('calls the base the common ancestor with its node, or says there is none', () => {
    expect(mergeTitles(mergePreview({ base: 'abcdef0123', baseLabel: 'Make the numbers louder' })).base.title).toBe('Common ancestor · node abcdef0 · Make the numbers louder');
    expect(mergeTitles(mergePreview({ base: null, baseLabel: null })).base.title).toBe('No common ancestor');
  });

  it('says where the result is written', () => {
    const titles = mergeTitles(mergePreview({ into: '/home/me/project/' }));
    expect(titles.result.title).toBe('Into folder project');
    expect(titles.result.tooltip.split('\n')[0]).toBe('/home/me/project/');
  });

  it('cuts a long fork folder name in the middle: its date starts it, its id (where two forks differ) ends it', () => {
    const titles = mergeTitles(
      mergePreview({
        ours: side({ nodeId: 'snapshot-3f2a9c1b', dir: '/data/forks/20261201-161200-3f2a9c1b' }),
        theirs: side({ nodeId: 'snapshot-77aa01ce', dir: '/data/forks/20261201-161200-77aa01ce' }),
      }),
    );
    expect(titles.ours.title).toBe('Folder 20261201-…-3f2a9c1b — current contents');
    expect(titles.theirs.title).toBe('Folder 20261201-…-77aa01ce — current contents');
    expect(titles.ours.detail).toContain('node 3f2a9c1');
  });

  it('names the whole folders when their cut names would read the same', () => {
    const titles = mergeTitles(
      mergePreview({
        ours: side({ nodeId: 'n-1', dir: '/w/alpha-build-one-of-longname' }),
        theirs: side({ nodeId: 'n-2', dir: '/w/alpha-build-two-of-longname' }),
      }),
    );
    expect(titles.ours.title).toBe('Folder alpha-build-one-of-longname — current contents');
    expect(titles.theirs.title).toBe('Folder alpha-build-two-of-longname — current contents');
  });

  it('tells ours and theirs apart when they would read the same: same folder name, same label, same folder', () => {
    const sameName = mergeTitles(mergePreview({ ours: side({ nodeId: 'n-1', dir: '/a/app' }), theirs: side({ nodeId: 'n-2', dir: '/b/app' }) }));
    expect([sameName.ours.title, sameName.theirs.title]).toEqual(['Folder a/app — current contents', 'Folder b/app — current contents']);
    const sameLabel = mergeTitles(mergePreview({ ours: side({ nodeId: 'aaaaaaa1', label: 'Retry' }), theirs: side({ nodeId: 'bbbbbbb2', label: 'Retry' }) }));
    expect(sameLabel.ours.title).not.toBe(sameLabel.theirs.title);
    const sameFolder = mergeTitles(mergePreview({ ours: side({ nodeId: 'snapshot-aaaaaaa1', dir: '/w/app' }), theirs: side({ nodeId: 'snapshot-bbbbbbb2', dir: '/w/app' }) }));
    expect(sameFolder.ours.title).toBe('Folder w/app — current contents · node aaaaaaa');
    expect(sameFolder.theirs.title).toBe('Folder w/app — current contents · node bbbbbbb');
    const sameShortId = mergeTitles(mergePreview({ ours: side({ nodeId: 'abcdefg-1', dir: '/w/app' }), theirs: side({ nodeId: 'abcdefg-2', dir: '/w/app' }) }));
    expect(sameShortId.ours.title).not.toBe(sameShortId.theirs.title);
  });
});

describe('title helpers', () => {
  it('shortens ids as the graph cards do and cuts prompts at a word', () => {
    expect(shortNodeId('snapshot-3f2a9c1b77')).toBe('3f2a9c1');
    expect(shortNodeId('3f2a9c1b77')).toBe('3f2a9c1');
    expect(firstWords('  two\n words  ')).toBe('two words');
    expect(firstWords('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });
});
