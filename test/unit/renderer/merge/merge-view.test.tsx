import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MergeContinued, MergeOutcome, MergeResolution } from '../../../../shared/operations';
import { createMergeSession, type MergeSession } from '../../../../renderer/src/merge/merge-session';
import { MergeView } from '../../../../renderer/src/merge/MergeView';
import { mergeWrap, WRAP_KEY } from '../../../../renderer/src/merge/wrap-preference';
import { createFakeClient, type FakeClient } from '../fake-client';
import { renderWithStore } from '../render';
import { fileSides, lines, mergePreview } from './merge-fixtures';

const APPLIED: MergeOutcome = {
  status: 'applied',
  operation: 'op-7',
  kind: 'merge',
  workspace: '/work/fork-a',
  written: ['src/app.ts', 'README.md'],
  created: [],
  deleted: ['logo.png'],
  sideEffects: [],
  mergeNode: 'node-merge',
};

const CONTINUED: MergeContinued = {
  operation: 'op-7',
  mergeNode: 'node-merge',
  branch: 'snapshot-continued',
  fork: 'fork-9',
  dir: '/work/fork a',
  resume: 'claude --resume 0b5e1f7a-1111-4222-8333-944455556666',
  resumeSessionId: '0b5e1f7a-1111-4222-8333-944455556666',
  transcript: '/home/u/.claude/projects/-work-fork-a/0b5e1f7a-1111-4222-8333-944455556666.jsonl',
  summaryNode: 'summary-1',
  warnings: [],
};

function setup(outcome: MergeOutcome = APPLIED) {
  const merged: string[] = [];
  const client: FakeClient = createFakeClient({
    'merge.continue': () => CONTINUED,
    'merge.preview': () => mergePreview(),
    'merge.file': ({ path }) => fileSides(path),
    'merge.apply': () => outcome,
    'operations.undo': () => ({ status: 'applied', operation: 'op-8', kind: 'undo', workspace: '/work/fork-a', written: ['src/app.ts'], created: [], deleted: [], sideEffects: [] }),
  });
  const session = createMergeSession(client, { ours: 'node-ours', theirs: 'node-theirs', onMerged: (id) => merged.push(id) });
  renderWithStore(<MergeView session={session} onClose={() => undefined} />, client);
  return { client, session, merged };
}

const row = (path: string) => screen.getAllByTestId('merge-file-row').find((r) => r.dataset.path === path)!;
const applyButton = () => screen.getByTestId('merge-apply') as HTMLButtonElement;
const appText = (session: MergeSession) => session.document('src/app.ts')!.doc.toString();
const hunkAction = (ordinal: number, choice: string) => {
  const bar = screen.getAllByTestId('hunk-bar').find((b) => b.dataset.ordinal === String(ordinal))!;
  return bar.querySelector<HTMLButtonElement>(`button[data-choice="${choice}"]`)!;
};
const applyRequest = (client: FakeClient) => client.calls.find((c) => c.method === 'merge.apply')?.request as { token: string; resolutions: MergeResolution[]; conflictSide?: string } | undefined;

afterEach(() => {
  cleanup();
  mergeWrap.getState().setWrap(false);
});


describe('the merge view', () => {
  it('lists the files with their status and opens the first conflict in three panes and a result', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    // The header's chips name each side shortly; their tooltips say the rest.
    expect(screen.getByTestId('merge-sides').textContent).toContain('Folder fork-a');
    expect(screen.getByTestId('merge-sides').textContent).toContain('Folder fork-b');
    expect(screen.getByTestId('merge-sides').textContent).toContain('basenode node-ba');
    expect(within(screen.getByTestId('merge-sides')).getByTitle(/^\/work\/fork-b the folder's files as they are now/).textContent).toContain('Folder fork-b');
    expect(screen.getByTestId('merge-into').textContent).toContain('fork-a');
    // Conflicts first: the text file, then the binary one, then the clean one.
    expect(screen.getAllByTestId('merge-file-row').map((r) => r.dataset.path)).toEqual(['logo.png', 'src/app.ts', 'README.md']);
    expect(screen.getByTestId('merge-file').dataset.path).toBe('logo.png');
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    for (const side of ['ours', 'base', 'theirs']) expect(screen.getByTestId(`merge-pane-${side}`)).toBeTruthy();
    expect(screen.getByTestId('file-conflicts-left').textContent).toBe('2 conflicts left');
    expect(screen.getByTestId('merge-conflicts-left').dataset.count).toBe('3');
  });

  it('titles every version by what it is: two folders as they are now, the common ancestor, the result', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(
      expect.arrayContaining([
        'Ours: Folder fork-a — current contents',
        'Base: Common ancestor · node node-ba · Make the numbers louder',
        'Theirs: Folder fork-b — current contents',
        'Result: Into folder fork-a',
      ]),
    );
    // Each pane is a region named by its heading, and its tooltip has the full path.
    expect(screen.getByRole('region', { name: /^Ours\s*:\s*Folder fork-a — current contents$/ })).toBe(screen.getByTestId('merge-pane-ours'));
    expect(screen.getByTestId('merge-title-theirs').getAttribute('title')).toContain('/work/fork-b');
  });

  it('marks the words a side changed in its pane, and the changed words of a conflict in the result', async () => {
    const client: FakeClient = createFakeClient({
      'merge.preview': () => mergePreview({ files: [{ path: 'usage.md', status: 'conflicted', changedBy: 'both', conflict: 'content', conflicts: 1 }], conflicted: 1 }),
      'merge.file': ({ path }) => ({
        path,
        base: lines('# tally', 'node dist/index.js notes.txt'),
        ours: lines('# tally', 'node dist/index.js --top 5 notes.txt'),
        theirs: lines('# tally', 'node dist/index.js --json notes.txt'),
        binary: false,
        merged: null,
      }),
    });
    const session = createMergeSession(client, { ours: 'node-ours', theirs: 'node-theirs' });
    renderWithStore(<MergeView session={session} onClose={() => undefined} />, client);
    await act(() => session.store.getState().load());
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(1));
    const marks = (testId: string, cls: string) => [...screen.getByTestId(testId).querySelectorAll(`.${cls}`)].map((m) => m.textContent);
    expect(marks('merge-pane-ours', 'cm-merge-word--ours')).toEqual(['--top 5']);
    expect(marks('merge-pane-theirs', 'cm-merge-word--theirs')).toEqual(['--json']);
    expect(marks('merge-result', 'cm-merge-word--ours')).toEqual(['--top 5']);
    expect(marks('merge-result', 'cm-merge-word--theirs')).toEqual(['--json']);
    // Once the conflict is settled its words are plain text again.
    fireEvent.click(hunkAction(0, 'theirs'));
    await waitFor(() => expect(marks('merge-result', 'cm-merge-word')).toEqual([]));
  });

  it('Wrap (a pressed button, or Alt+Z anywhere in the view) wraps every editor and is remembered', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    const editors = () => [...screen.getByTestId('merge-view').querySelectorAll('.cm-editor')];
    const wrapped = () => editors().map((e) => e.querySelector('.cm-content')!.classList.contains('cm-lineWrapping'));
    const button = screen.getByRole('button', { name: 'Wrap' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(wrapped()).toEqual([false, false, false, false]);
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(wrapped()).toEqual([true, true, true, true]);
    expect(localStorage.getItem(WRAP_KEY)).toBe('1');
    fireEvent.keyDown(row('src/app.ts'), { key: 'Ω', code: 'KeyZ', altKey: true });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(wrapped()).toEqual([false, false, false, false]);
    // A file opened while wrapping starts wrapped.
    fireEvent.keyDown(row('src/app.ts'), { key: 'z', code: 'KeyZ', altKey: true });
    await act(() => session.store.getState().openFile('README.md'));
    await waitFor(() => expect(screen.getByTestId('merge-file').dataset.path).toBe('README.md'));
    await waitFor(() => expect(wrapped().length).toBeGreaterThan(0));
    expect(wrapped().every(Boolean)).toBe(true);
  });

  it('takes hunks one by one; the result text is what each action says, and the file gets its ✓', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));

    fireEvent.click(hunkAction(0, 'theirs-then-ours'));
    expect(appText(session).startsWith(lines('one', 'TWO-theirs', 'TWO-ours', 'three', 'FOUR-theirs'))).toBe(true);
    await waitFor(() => expect(screen.getByTestId('file-conflicts-left').textContent).toBe('1 conflict left'));
    expect(row('src/app.ts').dataset.settled).toBe('false');

    fireEvent.click(hunkAction(1, 'ours'));
    expect(appText(session)).toBe(lines('one', 'TWO-theirs', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-ours', 'seven'));
    await waitFor(() => expect(row('src/app.ts').dataset.settled).toBe('true'));
    expect(screen.getByTestId('file-conflicts-left').textContent).toContain('All conflicts resolved');

    // Changing one's mind: the first hunk again, from the base this time.
    fireEvent.click(hunkAction(0, 'base'));
    expect(appText(session)).toBe(lines('one', 'two', 'three', 'FOUR-theirs', 'five', 'SIX-ours', 'seven'));
  });

  it('previous / next and the toolbar act on the current conflict', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    const cursorConflict = () => {
      const state = session.document('src/app.ts')!;
      return state.doc.lineAt(state.selection.main.head).number;
    };
    fireEvent.click(screen.getByTestId('conflict-next'));
    expect(cursorConflict()).toBe(2); // the first conflict's "<<<<<<<" line
    fireEvent.click(screen.getByTestId('conflict-next'));
    expect(cursorConflict()).toBe(10); // the second one's
    fireEvent.click(screen.getByTestId('conflict-previous'));
    expect(cursorConflict()).toBe(2);
    fireEvent.click(screen.getByTestId('current-theirs'));
    expect(appText(session).startsWith(lines('one', 'TWO-theirs', 'three'))).toBe(true);
    // Taking a hunk moves on to the next one still open: the toolbar now acts on it.
    fireEvent.click(screen.getByTestId('current-ours-then-theirs'));
    expect(appText(session).endsWith(lines('SIX-ours', 'SIX-theirs', 'seven'))).toBe(true);
  });

  it('F7 / Shift+F7 and Alt+1…5 work inside the result editor', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    const content = screen.getByTestId('merge-result').querySelector('.cm-content') as HTMLElement;
    const line = () => {
      const state = session.document('src/app.ts')!;
      return state.doc.lineAt(state.selection.main.head).number;
    };
    fireEvent.keyDown(content, { key: 'F7', keyCode: 118 });
    expect(line()).toBe(2);
    fireEvent.keyDown(content, { key: 'F7', keyCode: 118 });
    expect(line()).toBe(10);
    fireEvent.keyDown(content, { key: 'F7', keyCode: 118, shiftKey: true });
    expect(line()).toBe(2);
    fireEvent.keyDown(content, { key: '2', code: 'Digit2', keyCode: 50, altKey: true });
    expect(appText(session).startsWith(lines('one', 'TWO-theirs', 'three'))).toBe(true);
    // Taking a hunk moved on to the one left. Anywhere in the view, not only in the editor: Alt+↑ from the
    // file list (it wraps onto the only conflict left), then Alt+5 (base).
    expect(line()).toBe(6);
    fireEvent.keyDown(row('README.md'), { key: 'ArrowUp', altKey: true });
    expect(line()).toBe(6);
    fireEvent.keyDown(row('README.md'), { key: '∞', code: 'Digit5', altKey: true });
    expect(appText(session).endsWith(lines('five', 'six', 'seven'))).toBe(true);
  });

  it('keeps Apply disabled while a conflict remains, then sends a resolution for every file the user changed', async () => {
    const { session, client, merged } = setup();
    await act(() => session.store.getState().load());
    expect(applyButton().disabled).toBe(true);
    // The binary file: choose a side.
    fireEvent.click(within(screen.getByTestId('choice-theirs')).getByRole('radio'));
    expect(row('logo.png').dataset.settled).toBe('true');
    expect(applyButton().disabled).toBe(true);

    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    fireEvent.click(hunkAction(0, 'ours'));
    expect(applyButton().disabled).toBe(true);
    fireEvent.click(hunkAction(1, 'theirs'));
    await waitFor(() => expect(applyButton().disabled).toBe(false));
    expect(screen.getByTestId('merge-conflicts-left').dataset.count).toBe('0');

    await act(async () => fireEvent.click(applyButton()));
    const request = applyRequest(client)!;
    expect(request.token).toBe('token-1');
    expect(request.conflictSide).toBeUndefined();
    expect(request.resolutions).toEqual([
      { path: 'src/app.ts', content: lines('one', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven') },
      { path: 'logo.png', take: 'theirs' },
    ]);
    expect(merged).toEqual(['node-merge']);

    // The result: what was written, and Undo.
    await waitFor(() => expect(screen.getByTestId('merge-outcome')).toBeTruthy());
    expect(screen.getByTestId('outcome-written').textContent).toContain('src/app.ts');
    expect(screen.getByTestId('merge-node-id').textContent).toBe('node-merge');
    await act(async () => fireEvent.click(screen.getByTestId('merge-undo')));
    expect(client.calls.find((c) => c.method === 'operations.undo')?.request).toEqual({ operationId: 'op-7' });
    await waitFor(() => expect(screen.getByTestId('merge-undone')).toBeTruthy());
  });

  it('continues from the merge: the resume command for the merged folder, with a copy button', async () => {
    const { session, client } = setup();
    await act(() => session.store.getState().load());
    act(() => session.store.getState().setConflictSide('ours'));
    await act(() => session.store.getState().apply());
    await waitFor(() => expect(screen.getByTestId('merge-outcome')).toBeTruthy());
    expect(client.calls.some((c) => c.method === 'merge.continue')).toBe(false); // nothing is written unasked
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Continue from the merge' })));
    expect(client.calls.find((c) => c.method === 'merge.continue')?.request).toEqual({ operation: 'op-7' });
    await waitFor(() => expect(screen.getByTestId('merge-resume').textContent).toBe(`cd '/work/fork a' && ${CONTINUED.resume}`));
    expect(within(screen.getByTestId('merge-continued')).getByRole('button', { name: /copy/i })).toBeTruthy();
    // Undo stays offered: the continuation is a branch of its own.
    expect((screen.getByTestId('merge-undo') as HTMLButtonElement).disabled).toBe(false);
  });

  it('“use ours for the rest” enables Apply; untouched conflicts are left to the service, touched files are sent whole', async () => {
    const { session, client } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    await waitFor(() => expect(screen.getAllByTestId('hunk-bar')).toHaveLength(2));
    fireEvent.click(hunkAction(1, 'theirs'));
    expect(applyButton().disabled).toBe(true);
    fireEvent.click(screen.getByTestId('rest-ours'));
    expect(applyButton().disabled).toBe(false);
    await act(async () => fireEvent.click(applyButton()));
    const request = applyRequest(client)!;
    expect(request.conflictSide).toBe('ours');
    // logo.png was never decided: the service takes ours for it.
    expect(request.resolutions).toEqual([{ path: 'src/app.ts', content: lines('one', 'TWO-ours', 'three', 'FOUR-theirs', 'five', 'SIX-theirs', 'seven') }]);
  });

  it('explains a target that changed since the preview, and writes nothing', async () => {
    const { session } = setup({ status: 'workspace-changed', changed: ['src/app.ts'] });
    await act(() => session.store.getState().load());
    fireEvent.click(screen.getByTestId('rest-theirs'));
    await act(async () => fireEvent.click(applyButton()));
    expect(screen.getByTestId('merge-workspace-changed').textContent).toContain('src/app.ts');
    expect(screen.queryByTestId('merge-outcome')).toBeNull();
    expect(applyButton().disabled).toBe(false);
  });

  it('beside the files, highlights the steps that touched the open file', async () => {
    const { session } = setup();
    await act(() => session.store.getState().load());
    await act(() => session.store.getState().openFile('src/app.ts'));
    const ours = within(screen.getByTestId('merge-messages-ours')).getAllByTestId('merge-message');
    expect(ours.map((m) => m.dataset.relevant)).toEqual(['false', 'true']);
    const theirs = within(screen.getByTestId('merge-messages-theirs')).getAllByTestId('merge-message');
    expect(theirs.map((m) => m.dataset.relevant)).toEqual(['false']);
    await act(() => session.store.getState().openFile('README.md'));
    expect(within(screen.getByTestId('merge-messages-theirs')).getAllByTestId('merge-message')[0]!.dataset.relevant).toBe('true');
  });
});
