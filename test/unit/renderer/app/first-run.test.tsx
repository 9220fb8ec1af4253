import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { ArborError } from '../../../../shared/errors';
import { ConnectionBanner, ErrorBanner } from '../../../../renderer/src/app/Banners';
import { DemoOffer } from '../../../../renderer/src/import/DemoOffer';
import { ImportStatus } from '../../../../renderer/src/import/ImportStatus';
import { createFakeClient, deferred, graphFor, nodeDetail, session } from '../fake-client';
import { renderWithStore } from '../render';
import type { ImportReport } from '../../../../shared/model';

afterEach(cleanup);

describe('first run', () => {
  it('the demo offer creates the demo session and opens it', async () => {
    let created = false;
    const client = createFakeClient({
      'demo.create': () => {
        created = true;
        return { sessionId: 'demo', dir: '/tmp/d' };
      },
      'sessions.list': () => ({ sessions: created ? [session('demo')] : [], total: 0 }),
      'sessions.graph': ({ sessionId }) => graphFor(sessionId),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const { store } = renderWithStore(<DemoOffer />, client);
    expect(screen.getByTestId('demo-offer')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('demo-create')));
    await vi.waitFor(() => expect(store.getState().selectedSessionId).toBe('demo'));
  });

  it('shows import progress with a working cancel button, then a summary', async () => {
    const run = deferred<ImportReport>();
    const client = createFakeClient({
      'import.locations': () => ({ locations: [] }),
      'import.run': (_r, signal) =>
        new Promise((resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new ArborError('CANCELLED', 'cancelled')));
          void run.promise.then(resolve);
        }),
      'sessions.list': () => ({ sessions: [], total: 0 }),
    });
    const { store } = renderWithStore(<ImportStatus />, client);
    let done!: Promise<void>;
    act(() => {
      done = store.getState().runImport();
    });
    act(() => store.getState().applyImportProgress({ jobId: 'j', phase: 'import', filesDone: 2, filesTotal: 8, bytesDone: 5, bytesTotal: 20, currentFile: null }));
    const progress = screen.getByTestId('import-progress');
    expect(progress.textContent).toContain('2 / 8');
    expect((progress.querySelector('progress') as HTMLProgressElement).value).toBeCloseTo(0.25);
    await act(async () => {
      fireEvent.click(screen.getByText('Cancel'));
      await done;
    });
    expect(screen.queryByTestId('import-progress')).toBeNull();
    expect(screen.getByTestId('import-summary').textContent).toBe('Import cancelled');
    expect(store.getState().notices).toEqual([]);
  });
});

describe('banners', () => {
  it('shows errors with their code and lets the user dismiss them', () => {
    const { store } = renderWithStore(<ErrorBanner />);
    expect(screen.queryByTestId('app-error')).toBeNull();
    act(() => store.getState().reportError(new ArborError('IO', 'disk full'), 'Import failed'));
    const banner = screen.getByTestId('app-error');
    expect(banner.textContent).toContain('Import failed: disk full');
    expect(banner.querySelector('[data-code="IO"]')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Dismiss'));
    expect(screen.queryByTestId('app-error')).toBeNull();
  });

  it('shows the disconnected banner while the client is disconnected', () => {
    const client = createFakeClient();
    renderWithStore(<ConnectionBanner />, client);
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    act(() => client.setConnection('disconnected'));
    expect(screen.getByTestId('connection-lost').textContent).toContain('Disconnected');
    act(() => client.setConnection('connected'));
    expect(screen.queryByTestId('connection-lost')).toBeNull();
  });
});
