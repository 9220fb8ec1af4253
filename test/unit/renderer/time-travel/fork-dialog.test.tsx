import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForkDialog } from '../../../../renderer/src/time-travel/ForkDialog';
import { ForksDialog } from '../../../../renderer/src/time-travel/ForksDialog';
import { resumeLine, shellQuote } from '../../../../renderer/src/time-travel/resume-command';
import { createFakeClient, graphFor, nodeDetail, type Handlers } from '../fake-client';
import { renderWithStore } from '../render';
import { forkCreated, forkSummary } from './time-travel-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

async function openFork(handlers: Handlers) {
  const client = createFakeClient({ 'sessions.graph': () => graphFor('s1'), 'nodes.get': ({ nodeId }) => nodeDetail(nodeId), ...handlers });
  const view = renderWithStore(<ForkDialog nodeId="n1" onClose={() => undefined} />, client);
  await act(async () => {
    view.store.setState({ selectedSessionId: 's1' });
  });
  return view;
}

describe('ForkDialog', () => {
  it('forks into the default folder when none is given, then shows the folder and the command to continue', async () => {
    const { client, store } = await openFork({ 'fork.create': () => forkCreated() });
    await click(screen.getByTestId('fork-create'));
    const create = client.calls.find((c) => c.method === 'fork.create');
    expect(create?.request).toEqual({ nodeId: 'n1' });
    expect(screen.getByTestId('fork-dir').textContent).toBe('/tmp/forks/tally fork');
    expect(screen.getByTestId('fork-resume').textContent).toBe("cd '/tmp/forks/tally fork' && claude --resume 1234");
    // The graph is reloaded and the new branch selected, so it shows at once.
    const after = client.calls.map((c) => c.method).slice(client.calls.indexOf(create!));
    expect(after).toContain('sessions.graph');
    expect(store.getState().selectedNodeId).toBe('branch-1');
  });

  it('a Codex fork shows `codex resume <id>` after the cd, as the service answers it', async () => {
    const id = '019e0000-0000-7000-8000-00000000d001';
    await openFork({ 'fork.create': () => forkCreated({ resume: `codex resume ${id}`, resumeSessionId: id, transcript: `/home/u/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-${id}.jsonl` }) });
    await click(screen.getByTestId('fork-create'));
    expect(screen.getByTestId('fork-resume').textContent).toBe(`cd '/tmp/forks/tally fork' && codex resume ${id}`);
    expect(screen.getByText(/rollout-2026-12-01T10-00-00-/).textContent).toContain('/.codex/sessions/');
  });

  it('sends the folder typed in, and copies the command with the clipboard', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { client } = await openFork({ 'fork.create': () => forkCreated({ dir: '/tmp/mine' }) });
    fireEvent.change(screen.getByTestId('fork-target'), { target: { value: '  /tmp/mine ' } });
    await click(screen.getByTestId('fork-create'));
    expect(client.calls.find((c) => c.method === 'fork.create')?.request).toEqual({ nodeId: 'n1', dir: '/tmp/mine' });
    await click(screen.getByTestId('copy-button'));
    expect(writeText).toHaveBeenCalledWith('cd /tmp/mine && claude --resume 1234');
    expect(screen.getByTestId('copy-button').textContent).toBe('Copied');
  });

  it('"Temporary — remove after N days" sends that time to live; a day count out of range cannot be sent', async () => {
    const { client } = await openFork({ 'fork.create': () => forkCreated() });
    const days = screen.getByTestId('fork-temporary-days') as HTMLInputElement;
    expect(days.disabled).toBe(true);
    fireEvent.click(screen.getByTestId('fork-temporary'));
    fireEvent.change(days, { target: { value: '0' } });
    expect((screen.getByTestId('fork-create') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(days, { target: { value: '3' } });
    await click(screen.getByTestId('fork-create'));
    expect(client.calls.find((c) => c.method === 'fork.create')?.request).toEqual({ nodeId: 'n1', temporaryMs: 3 * 86_400_000 });
    expect(screen.getByTestId('fork-temporary-note').textContent).toBe('removed by the clean up after 3 days');
  });

  it('selects the command for Ctrl+C when the clipboard is refused', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    await openFork({ 'fork.create': () => forkCreated() });
    await click(screen.getByTestId('fork-create'));
    await click(screen.getByTestId('copy-button'));
    expect(window.getSelection()?.toString()).toBe("cd '/tmp/forks/tally fork' && claude --resume 1234");
    expect(screen.getByTestId('copy-button').textContent).toContain('Ctrl+C');
  });

  it('shows why a fork failed', async () => {
    const { ArborError } = await import('../../../../shared/errors');
    await openFork({
      'fork.create': () => {
        throw new ArborError('BAD_REQUEST', '/tmp/x is not empty');
      },
    });
    await click(screen.getByTestId('fork-create'));
    expect(screen.getByTestId('time-travel-error').getAttribute('data-code')).toBe('BAD_REQUEST');
    expect(screen.getByTestId('fork-create')).toBeTruthy();
  });
});

describe('ForksDialog', () => {
  it('lists forks with their size and removes one only after a confirmation', async () => {
    let forks = [forkSummary(), forkSummary({ fork: 'fork-2', dir: '/tmp/forks/two', bytes: null })];
    const client = createFakeClient({
      'forks.list': () => ({ forks }),
      'forks.remove': ({ forkIds }) => {
        forks = forks.filter((f) => !forkIds.includes(f.fork));
        return { removed: forkIds, problems: [] };
      },
    });
    renderWithStore(<ForksDialog onClose={() => undefined} />, client);
    const rows = await screen.findAllByTestId('fork-row');
    expect(rows).toHaveLength(2);
    expect(screen.getAllByTestId('fork-size').map((e) => e.textContent)).toEqual(['5 MB', 'folder gone']);
    await click(screen.getAllByTestId('fork-remove')[0]!);
    expect(client.calls.some((c) => c.method === 'forks.remove')).toBe(false);
    await click(screen.getByTestId('fork-remove-confirm'));
    expect(client.calls.find((c) => c.method === 'forks.remove')?.request).toEqual({ forkIds: ['fork-1'] });
    expect(screen.getAllByTestId('fork-row')).toHaveLength(1);
  });
});

describe('resume command', () => {
  it('quotes folders for a POSIX shell', () => {
    expect(shellQuote('/tmp/plain-dir')).toBe('/tmp/plain-dir');
    expect(shellQuote("/tmp/it's here")).toBe(`'/tmp/it'\\''s here'`);
    expect(resumeLine('/a b', 'claude --resume x')).toBe("cd '/a b' && claude --resume x");
  });
});
