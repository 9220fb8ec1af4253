import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../../../../shared/model';
import { ImportFolderButton } from '../../../../renderer/src/sessions/ImportFolder';
import { paletteRegistry } from '../../../../renderer/src/palette/palette-registry';
import { createFakeClient, deferred, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

describe('Import folder…', () => {
  it('imports the typed folder with import.run, shows the run as running, then lists what it found', async () => {
    const run = deferred<ImportReport>();
    let imported = false;
    const client = createFakeClient({
      'import.run': () => run.promise,
      'sessions.list': () => ({ sessions: imported ? [session('s1')] : [], total: imported ? 1 : 0 }),
    });
    const { store } = renderWithStore(<ImportFolderButton />, client);
    act(() => void fireEvent.click(screen.getByTestId('import-folder')));
    const start = screen.getByTestId('import-folder-start') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    act(() => void fireEvent.change(screen.getByTestId('import-folder-path'), { target: { value: '  /work/transcripts ' } }));
    act(() => void fireEvent.click(start));
    expect(screen.queryByTestId('import-folder-dialog')).toBeNull();
    expect(client.calls).toContainEqual({ method: 'import.run', request: { paths: ['/work/transcripts'] } });
    expect(client.calls.some((c) => c.method === 'import.locations')).toBe(false);
    expect(store.getState().importPhase).toBe('running');
    expect((screen.getByTestId('import-folder') as HTMLButtonElement).disabled).toBe(true);
    imported = true;
    await act(async () => run.resolve({ sessions: [{ id: 's1', source: 'claude-code', files: 1, nodes: 3 }], problems: [] }));
    await vi.waitFor(() => expect(store.getState().sessions.map((s) => s.id)).toEqual(['s1']));
    expect(store.getState().importPhase).toBe('done');
  });

  it('is an action of the command palette while the sessions list is there', () => {
    renderWithStore(<ImportFolderButton />);
    expect(paletteRegistry.actions().map((a) => a.title)).toContain('Import folder…');
    cleanup();
    expect(paletteRegistry.actions().map((a) => a.title)).not.toContain('Import folder…');
  });
});
