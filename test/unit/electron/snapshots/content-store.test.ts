/**
 * The reconstruction's content store (content-store.ts): texts kept as ids of shared lines come back exactly, the
 * versions of a file share their runs of lines, and an effect kept by id gives back the effect the reader read.
 */
import { describe, expect, it } from 'vitest';
import { ABSENT_ID, ContentStore, KeptEffect, UNKNOWN_ID } from '../../../../electron/snapshots/reconstruct/content-store';
import { UNKNOWN_CONTENT, type FileEdit } from '../../../../electron/snapshots/reconstruct/file-edits';

describe('ContentStore', () => {
  it('gives every text back exactly: empty lines, CRLF, no final newline, a lone surrogate, non-ASCII', () => {
    const store = new ContentStore();
    const texts = ['', '\n', 'a', 'a\n', '\n\nb\n\n', 'one\r\ntwo\r\n', 'x'.repeat(40) + '\n' + 'y'.repeat(40), `head ${'\ud800'} lone surrogate line\n`, 'café ☕ 𝄞 line long enough to be sliced\n'];
    const ids = texts.map((text) => store.idOf(text));
    // Asked again out of order, past the few joined texts it keeps.
    for (let k = texts.length - 1; k >= 0; k--) expect(store.contentOf(ids[k]!)).toBe(texts[k]);
    expect(store.idOf(null)).toBe(ABSENT_ID);
    expect(store.contentOf(ABSENT_ID)).toBeNull();
    expect(store.idOf(UNKNOWN_CONTENT)).toBe(UNKNOWN_ID);
    expect(store.contentOf(UNKNOWN_ID)).toBe(UNKNOWN_CONTENT);
    expect(store.contentOf('0'.repeat(40))).toBe(UNKNOWN_CONTENT);
  });

  it('keeps a text once and the versions of a file on shared runs of lines (memory grew with every Edit result)', () => {
    const store = new ContentStore();
    const lines = Array.from({ length: 200 }, (_, k) => `${' '.repeat(k % 3)}const line${k} = ${'x'.repeat((k * 7) % 23)}; // long enough to be a slice ${k % 5}`);
    const versions = Array.from({ length: 100 }, (_, v) => [...lines.slice(0, v), `changed in version ${v}`, ...lines.slice(v + 1)].join('\n'));
    const ids = versions.map((text) => store.idOf(text));
    expect(store.idOf(versions[3]!)).toBe(ids[3]);
    expect(store.size).toBe(100);
    // The runs of the first version, plus about one changed run per version: not every run of every version.
    const runsOfOne = new ContentStore();
    runsOfOne.idOf(versions[0]!);
    expect(store.runCount).toBeLessThan(runsOfOne.runCount + 3 * 100);
    expect(runsOfOne.runCount * 100).toBeGreaterThan(4 * store.runCount);
    for (let v = 0; v < 100; v += 7) expect(store.contentOf(ids[v]!)).toBe(versions[v]);
  });
});

describe('KeptEffect', () => {
  const edit: FileEdit = {
    tool: 'Edit',
    toolUseId: 'toolu_1',
    path: '/w/a.ts',
    before: 'one\n\ttwo\nthree\n',
    after: 'one\n\t2\nthree\n',
    source: 'originalFile',
    patch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-\ttwo', '+\t2', ' three', '', '\\ No newline at end of file'] }],
    replacements: [{ oldString: 'two', newString: '2', replaceAll: false }],
  };

  it('gives back the effect as read from ids alone, without the display hunks the replay never reads', () => {
    const store = new ContentStore();
    const kept = new KeptEffect(edit, store);
    expect(kept.beforeId).toBe(store.idOf(edit.before));
    expect(kept.afterId).toBe(store.idOf(edit.after));
    expect(kept.before).toBe(edit.before);
    expect(kept.after).toBe(edit.after);
    expect(kept.whole()).toEqual({ ...edit, patch: [] });
  });

  it('keeps the hunks where the replay derives the after-state from them', () => {
    const store = new ContentStore();
    const hunksOnly: FileEdit = { ...edit, before: UNKNOWN_CONTENT, after: UNKNOWN_CONTENT, source: 'none', replacements: [] };
    expect(new KeptEffect(hunksOnly, store).whole()).toEqual(hunksOnly);
    // With replacements the hunks are display text only (applyFileEdit).
    expect(new KeptEffect({ ...hunksOnly, replacements: edit.replacements }, store).patch).toEqual([]);
  });

  it('keeps what the file did not have: absent, unknown, a move and context hunks', () => {
    const store = new ContentStore();
    const moved: FileEdit = { ...edit, before: null, after: UNKNOWN_CONTENT, source: 'create', patch: [], replacements: [], from: '/w/old.ts', contextPatch: [{ context: null, oldLines: ['a'], newLines: ['b'], endOfFile: false }] };
    const kept = new KeptEffect(moved, store);
    expect(kept.before).toBeNull();
    expect(kept.after).toBe(UNKNOWN_CONTENT);
    expect(kept.whole()).toEqual(moved);
    expect(new KeptEffect(edit, store).whole()).not.toHaveProperty('from');
  });
});
