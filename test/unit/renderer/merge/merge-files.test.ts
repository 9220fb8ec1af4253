import { describe, expect, it } from 'vitest';
import type { MergeFileEntry } from '../../../../shared/operations';
import { createMergeDocument, settleConflict } from '../../../../renderer/src/merge/merge-document';
import { buildResolutions, conflictsLeft, fileViewKind, type FileProgress } from '../../../../renderer/src/merge/merge-files';
import { choiceOptions } from '../../../../renderer/src/merge/SideChoicePanel';
import { APP_BASE, APP_OURS, APP_THEIRS, mergePreview } from './merge-fixtures';

const ready = (over: Partial<FileProgress>): FileProgress => ({ load: 'ready', view: 'text', openConflicts: 0, changed: false, choice: null, ...over });
const modifyDelete: MergeFileEntry = { path: 'old.ts', status: 'conflicted', changedBy: 'both', conflict: 'modify/delete', conflicts: 0 };

describe('merge file rules', () => {
  it('shows text conflicts as three panes, and binary / modify-delete / mode conflicts as a choice', () => {
    const text = { path: 'a', base: 'x', ours: 'y', theirs: 'z', binary: false, merged: null };
    expect(fileViewKind({ path: 'a', status: 'conflicted', changedBy: 'both', conflict: 'content', conflicts: 1 }, text)).toBe('text');
    expect(fileViewKind({ path: 'a', status: 'conflicted', changedBy: 'both', conflict: 'add/add', conflicts: 1 }, text)).toBe('text');
    expect(fileViewKind(modifyDelete, { ...text, ours: null })).toBe('choice');
    expect(fileViewKind({ path: 'a', status: 'conflicted', changedBy: 'both', conflict: 'mode', conflicts: 0 }, text)).toBe('choice');
    expect(fileViewKind({ path: 'a', status: 'conflicted', changedBy: 'both', conflict: 'content', conflicts: 1 }, { ...text, binary: true })).toBe('choice');
    expect(fileViewKind({ path: 'a', status: 'deleted', changedBy: 'ours', conflicts: 0 }, { ...text, ours: null })).toBe('notice');
    expect(fileViewKind({ path: 'a', status: 'added', changedBy: 'theirs', conflicts: 0 }, { ...text, base: null, ours: null })).toBe('text');
  });

  it('counts conflicts left from the preview until a file is open, then from the user’s work', () => {
    const preview = mergePreview();
    expect(conflictsLeft(preview, {})).toBe(3); // app.ts: 2 hunks, logo.png: 1 choice
    expect(conflictsLeft(preview, { 'src/app.ts': ready({ openConflicts: 1 }) })).toBe(2);
    expect(conflictsLeft(preview, { 'src/app.ts': ready({ openConflicts: 0 }), 'logo.png': ready({ view: 'choice', choice: 'delete' }) })).toBe(0);
  });

  it('words modify/delete choices by what they write', () => {
    const preview = mergePreview();
    const options = choiceOptions(preview, modifyDelete, { path: 'old.ts', base: 'a\n', ours: null, theirs: 'a\nb\n', binary: false, merged: null });
    expect(options.map((o) => [o.choice, o.label])).toEqual([
      ['ours', 'Delete it, as ours did'],
      ['theirs', 'Keep theirs'],
    ]);
    expect(options[1]?.detail).toBe('The file as Theirs (fork B) has it (2 lines).');
  });

  it('sends changed text files whole, choices as take/delete, and leaves untouched files to the service', () => {
    const preview = mergePreview();
    const doc = createMergeDocument({ base: APP_BASE, ours: APP_OURS, theirs: APP_THEIRS }).state;
    const edited = doc.update(settleConflict(doc, 0, 'theirs')!).state;
    const files = {
      'src/app.ts': ready({ openConflicts: 1, changed: true }),
      'README.md': ready({}),
      'logo.png': ready({ view: 'choice', choice: 'delete' }),
    };
    const documents = new Map([['src/app.ts', edited]]);
    const withOurs = buildResolutions(preview, files, (p) => documents.get(p), 'ours');
    expect(withOurs).toEqual([
      { path: 'src/app.ts', content: 'one\nTWO-theirs\nthree\nFOUR-theirs\nfive\nSIX-ours\nseven\n' },
      { path: 'logo.png', content: null },
    ]);
  });
});
