import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArborError } from '../../../../shared/errors';
import type { RewindPreview } from '../../../../shared/operations';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { createAppStore } from '../../../../renderer/src/state/store';
import { RewindDialog } from '../../../../renderer/src/time-travel/RewindDialog';
import { createFakeClient, deferred, type Handlers } from '../fake-client';
import { renderWithStore } from '../render';
import { applied, rewindPreview } from './time-travel-fixtures';

afterEach(cleanup);

function open(handlers: Handlers) {
  const client = createFakeClient(handlers);
  let closed = 0;
  const view = renderWithStore(<RewindDialog nodeId="n1" onClose={() => closed++} />, client);
  return { ...view, closed: () => closed };
}

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

/** The operations asked for (the side-effect ledger the preview reads beside them is a read, not an operation). */
const methods = (client: ReturnType<typeof createFakeClient>) => client.calls.map((c) => c.method).filter((method) => method !== 'effects.ledger');

describe('RewindDialog', () => {
  it('shows the preview before anything can be applied, then applies with that preview’s token', async () => {
    const preview = deferred<RewindPreview>();
    const { client } = open({ 'rewind.preview': () => preview.promise, 'rewind.apply': () => applied() });
    expect(screen.getByText(/Working out what the rewind would change/)).toBeTruthy();
    expect(screen.queryByTestId('rewind-apply')).toBeNull();
    expect(methods(client)).toEqual(['rewind.preview']);

    await act(async () => preview.resolve(rewindPreview()));
    expect(screen.getByTestId('rewind-workspace').textContent).toBe('/work/demo/workspace');
    expect(screen.getByTestId('changes-written').textContent).toContain('src/index.ts');
    expect(screen.getByTestId('changes-created').textContent).toContain('src/old.ts');
    expect(screen.getByTestId('changes-deleted').textContent).toContain('src/json.ts');
    expect(screen.getByTestId('skipped').textContent).toContain('its content at this node is not known');
    expect(screen.getByTestId('side-effects').textContent).toMatch(/publish.*Bash.*npm publish/);
    expect(methods(client)).toEqual(['rewind.preview']);

    const apply = screen.getByTestId('rewind-apply');
    expect(apply.textContent).toBe('Rewind 4 files');
    await act(async () => fireEvent.click(apply));
    expect(client.calls.find((call) => call.method === 'rewind.apply')).toEqual({ method: 'rewind.apply', request: { nodeId: 'n1', token: 'token-abc' } });
    expect(screen.getByTestId('rewind-result').textContent).toContain('Rewound 4 files (2 written, 1 created, 1 deleted)');
  });

  it('a rewind presented a replayed file in doubt as known: it lists it under Not verified, with since which step and why', async () => {
    open({
      'rewind.preview': () =>
        rewindPreview({ known: 'unknown', unverified: [{ path: 'src/index.ts', since: 'abcdef0123456789', reason: 'shell' }] }),
    });
    const group = await screen.findByTestId('rewind-unverified');
    expect(group.textContent).toContain('src/index.ts');
    expect(group.textContent).toContain('abcdef01');
    expect(group.textContent).toContain('a shell command may have changed it');
    expect(group.textContent).not.toContain('package.json');
    expect(screen.getByTestId('rewind-known').textContent).toContain('not verified');
  });

  it('shows no Not verified group when every written file is known', async () => {
    open({ 'rewind.preview': () => rewindPreview() });
    await screen.findByTestId('rewind-preview');
    expect(screen.queryByTestId('rewind-unverified')).toBeNull();
  });

  it('undoes the applied operation by its id and says the workspace is back', async () => {
    const { client } = open({
      'rewind.preview': () => rewindPreview(),
      'rewind.apply': () => applied({ operation: 'op-42' }),
      'operations.undo': () => applied({ operation: 'op-43', kind: 'undo' }),
    });
    await click(await screen.findByTestId('rewind-apply'));
    await act(async () => fireEvent.click(screen.getByTestId('rewind-undo')));
    expect(client.calls.at(-1)).toEqual({ method: 'operations.undo', request: { operationId: 'op-42' } });
    expect(screen.getByTestId('rewind-undone').textContent).toContain('as it was before the rewind');
  });

  it('shows how far the preview got, and stops it when the dialog closes', async () => {
    const preview = deferred<RewindPreview>();
    let signal: AbortSignal | undefined;
    const { client, unmount } = open({
      'rewind.preview': (_request, callSignal) => {
        signal = callSignal;
        return preview.promise;
      },
    });
    act(() => client.emit('operation.progress', { operation: 'preview-1', phase: 'reading the workspace', done: 512, total: 10000 }));
    expect(screen.getByTestId('operation-progress').textContent).toContain('Working out what the rewind would change — reading the workspace 512 / 10000');
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });

  it('shows the preview under StrictMode, which mounts the dialog twice in development', async () => {
    const client = createFakeClient({ 'rewind.preview': () => rewindPreview() });
    // At the root, as renderer/src/main.tsx has it.
    render(
      <StrictMode>
        <AppProvider store={createAppStore(client)} client={client}>
          <RewindDialog nodeId="n1" onClose={() => undefined} />
        </AppProvider>
      </StrictMode>,
    );
    expect(await screen.findByTestId('rewind-apply')).toBeTruthy();
  });

  it('shows progress while applying', async () => {
    const outcome = deferred<ReturnType<typeof applied>>();
    const { client } = open({ 'rewind.preview': () => rewindPreview(), 'rewind.apply': () => outcome.promise });
    await click(await screen.findByTestId('rewind-apply'));
    expect(screen.getByTestId('operation-progress').textContent).toContain('Rewinding');
    act(() => client.emit('operation.progress', { operation: 'op-1', phase: 'writing files', done: 2, total: 4 }));
    expect(screen.getByTestId('operation-progress').textContent).toContain('writing files 2 / 4');
    await act(async () => outcome.resolve(applied()));
    expect(screen.queryByTestId('operation-progress')).toBeNull();
  });

  it('a workspace that changed since the preview lists the files and offers a fresh preview', async () => {
    let previews = 0;
    const { client } = open({
      'rewind.preview': () => rewindPreview({ token: `token-${++previews}` }),
      'rewind.apply': () => ({ status: 'workspace-changed', changed: ['src/index.ts'] }),
    });
    await click(await screen.findByTestId('rewind-apply'));
    expect(screen.getByTestId('rewind-workspace-changed').textContent).toContain('src/index.ts');
    await act(async () => fireEvent.click(screen.getByTestId('rewind-preview-again')));
    expect(methods(client)).toEqual(['rewind.preview', 'rewind.apply', 'rewind.preview']);
    await click(await screen.findByTestId('rewind-apply'));
    expect(client.calls.at(-1)?.request).toEqual({ nodeId: 'n1', token: 'token-2' });
  });

  it('shows a failed apply in the dialog with its code, and keeps the preview to try again', async () => {
    open({
      'rewind.preview': () => rewindPreview(),
      'rewind.apply': () => {
        throw new ArborError('IO', 'permission denied: src/index.ts');
      },
    });
    await click(await screen.findByTestId('rewind-apply'));
    const error = screen.getByTestId('time-travel-error');
    expect(error.getAttribute('data-code')).toBe('IO');
    expect(error.textContent).toContain('permission denied');
    expect(screen.getByTestId('rewind-apply')).toBeTruthy();
  });

  it('offers nothing to apply when the workspace already matches', async () => {
    open({ 'rewind.preview': () => rewindPreview({ written: [], created: [], deleted: [], skipped: [], sideEffects: [] }) });
    await waitFor(() => expect(screen.getByText(/already matches this node/)).toBeTruthy());
    expect((screen.getByTestId('rewind-apply') as HTMLButtonElement).disabled).toBe(true);
  });
});
