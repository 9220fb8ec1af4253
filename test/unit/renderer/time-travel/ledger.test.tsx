/**
 * The ledger's views on a fake client: the fork dialog's carried / after split with the replay marked and
 * outcomes said, the merge view's folded strip asking each side since the base, and the session dialog's
 * "Show the earlier request" (closes, selects that step) and its empty state.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry, SideEffectLedger } from '../../../../shared/side-effect-ledger';
import { MergeSideEffects } from '../../../../renderer/src/merge/MergeSideEffects';
import { ForkSideEffects } from '../../../../renderer/src/time-travel/ForkSideEffects';
import { LedgerDialog } from '../../../../renderer/src/time-travel/LedgerDialog';
import { RewindDialog } from '../../../../renderer/src/time-travel/RewindDialog';
import { rewindPreview } from './time-travel-fixtures';
import { createFakeClient } from '../fake-client';
import { mergePreview } from '../merge/merge-fixtures';
import { renderWithStore } from '../render';

afterEach(cleanup);

function entry(over: Partial<LedgerEntry>): LedgerEntry {
  return { nodeId: 'n1', toolUseId: 't1', tool: 'Bash', timestamp: null, kinds: [], effects: [], summary: 'x', outcome: 'ok', replayOf: null, afterThrough: false, ...over };
}

const COMMIT = 'git commit -m "fix"';
const ENTRIES: LedgerEntry[] = [
  entry({ nodeId: 'n1', toolUseId: 't1', effects: ['git commit'], summary: COMMIT, outcome: 'missing' }),
  entry({
    nodeId: 'n2', toolUseId: 't2', effects: ['git commit'], summary: COMMIT,
    replayOf: { nodeId: 'n1', toolUseId: 't1', summary: COMMIT, outcome: 'missing', reason: 'missing-outcome', effect: 'git commit' },
  }),
  entry({ nodeId: 'n3', toolUseId: 't3', kinds: ['git-push'], effects: ['git push'], summary: 'git push origin main', outcome: 'error' }),
  entry({ nodeId: 'n4', toolUseId: 't4', kinds: ['publish'], effects: ['npm publish'], summary: 'npm publish', afterThrough: true }),
];

const ledger = (over: Partial<SideEffectLedger> = {}): SideEffectLedger => ({ sessionId: 's1', through: 'n3', entries: ENTRIES, unrecorded: 1, replays: 1, ...over });

describe('the side-effect ledger views', () => {
  it('the fork dialog splits carried steps from later ones, marks the replay and says each outcome', async () => {
    const client = createFakeClient({ 'effects.ledger': () => ledger() });
    renderWithStore(<ForkSideEffects nodeId="n3" />, client);
    const carried = await screen.findByTestId('fork-effects-carried');
    expect(client.calls).toEqual([{ method: 'effects.ledger', request: { target: 'n3' } }]);
    const rows = [...carried.querySelectorAll('li')].map((li) => [li.getAttribute('data-kind'), li.getAttribute('data-outcome'), li.querySelector('[data-testid="replay"]') !== null]);
    expect(rows).toEqual([
      ['local', 'missing', false],
      ['local', 'ok', true],
      ['git-push', 'error', false],
    ]);
    expect(carried.textContent).toContain('requested, outcome not recorded');
    expect(carried.textContent).toContain('failed');
    expect(carried.querySelector('[data-testid="replay"]')!.textContent).toContain('Possible double effect: git commit requested again; the earlier request has no recorded outcome');
    expect(screen.getByTestId('replay-count').textContent).toBe('1 possible double effect');
    expect(screen.getByTestId('fork-effects-after').textContent).toContain('npm publish');
  });

  it('the merge view asks both sides since the base and lists only their steps up to each side', async () => {
    const client = createFakeClient({ 'effects.ledger': () => ledger() });
    const preview = mergePreview();
    renderWithStore(<MergeSideEffects preview={preview} />, client);
    const strip = await screen.findByTestId('merge-side-effects');
    expect(client.calls.map((call) => call.request)).toEqual([
      { target: preview.theirs.nodeId, ...(preview.base === null ? {} : { since: preview.base }) },
      { target: preview.ours.nodeId, ...(preview.base === null ? {} : { since: preview.base }) },
    ]);
    expect(strip.querySelector('summary')!.textContent).toMatch(/6 steps reached outside the workspace.*2 possible double effects/);
    expect(screen.getByTestId('merge-effects-theirs').querySelectorAll('li')).toHaveLength(3);
  });

  it('the session dialog shows the earlier request in the graph, closing itself', async () => {
    const client = createFakeClient({ 'effects.ledger': () => ledger({ through: null }), 'nodes.get': () => new Promise(() => undefined) });
    let closed = 0;
    const { store } = renderWithStore(<LedgerDialog sessionId="s1" onClose={() => closed++} />, client);
    await screen.findByTestId('ledger');
    expect(screen.getByTestId('ledger-facts').textContent).toMatch(/^4 steps · 1 without a recorded outcome · 1 possible double effect\./);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show the earlier request' })));
    expect(closed).toBe(1);
    await waitFor(() => expect(store.getState().selectedNodeId).toBe('n1'));
  });

  it('the rewind preview adds the ledger\'s outcome and replay mark to its side effects', async () => {
    const publish = entry({
      nodeId: 'n9', toolUseId: 'tu9', kinds: ['publish'], effects: ['npm publish'], summary: 'npm publish', outcome: 'missing',
      replayOf: { nodeId: 'n5', toolUseId: 'tu5', summary: 'npm publish', outcome: 'ok', reason: 'retry', effect: 'npm publish' },
    });
    const client = createFakeClient({ 'rewind.preview': () => rewindPreview(), 'effects.ledger': () => ledger({ entries: [publish] }) });
    renderWithStore(<RewindDialog nodeId="n1" onClose={() => undefined} />, client);
    const list = await screen.findByTestId('side-effects');
    await waitFor(() => expect(list.querySelector('[data-testid="replay"]')?.textContent).toContain('npm publish requested again; it already ran on another branch'));
    expect(list.textContent).toContain('requested, outcome not recorded');
    expect(client.calls.find((call) => call.method === 'effects.ledger')?.request).toEqual({ target: 'n1' });
  });

  it('says so when no step reached outside', async () => {
    renderWithStore(<LedgerDialog sessionId="s1" onClose={() => undefined} />, createFakeClient({ 'effects.ledger': () => ledger({ entries: [], unrecorded: 0, replays: 0 }) }));
    expect(await screen.findByText('No step of this session reached outside the workspace.')).toBeTruthy();
  });
});
