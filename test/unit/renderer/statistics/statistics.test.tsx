/** The Statistics view, the session header's cost and the branch heads behind the branch tooltip (issue 15). */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatsAnswer } from '../../../../shared/contract';
import type { UsageFigure } from '../../../../shared/usage';
import { branchHeads } from '../../../../renderer/src/statistics/branch-heads';
import { BranchCostTip } from '../../../../renderer/src/statistics/BranchCostTip';
import { SessionCost } from '../../../../renderer/src/statistics/SessionCost';
import { statisticsActions } from '../../../../renderer/src/statistics/statistics-actions';
import { statisticsStore } from '../../../../renderer/src/statistics/statistics-store';
import { StatisticsLayer } from '../../../../renderer/src/statistics/StatisticsView';
import { createFakeClient, nodeSummary } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  statisticsStore.getState().close();
});

/** Timers that run as time passes, and can be moved on: the views' "ask again while counting" wait is not waited for. */
function movableTimers(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
}

async function pollOnce(): Promise<void> {
  await act(async () => {
    vi.advanceTimersByTime(2000);
  });
}

const figure = (over: Partial<UsageFigure>): UsageFigure => ({
  tokens: { input: 1000, output: 200, cacheRead: 5000, cacheWrite: 0 },
  replies: 3,
  usd: 0.012,
  pricedUsd: 0.012,
  reportedUsd: 0,
  unknownModelTokens: 0,
  subscriptionTokens: 0,
  bases: ['priced'],
  priceDate: '2026-12-02',
  models: ['claude-sonnet-4-5'],
  ...over,
});

const answer = (by: 'day' | 'model'): StatsAnswer => ({
  by,
  filters: {},
  total: figure({}),
  rows:
    by === 'day'
      ? [{ key: '2026-11-01', ...figure({ usd: 0.01 }) }, { key: '2026-11-02', ...figure({ usd: 0.002 }) }]
      : [{ key: 'claude-sonnet-4-5', ...figure({}) }, { key: 'mystery', ...figure({ usd: null, bases: ['model-unknown'], unknownModelTokens: 6200 }) }],
  topSessions: [{ sessionId: 's1', title: 'Add a flag', project: '/work/app', agent: 'claude-code', figure: figure({}) }],
  projects: ['/work/app'],
  agents: ['claude-code'],
  plans: [],
  counting: false,
});

describe('Statistics view', () => {
  it('opens from the palette and shows bars per day and per model, the total and the top sessions', async () => {
    const client = createFakeClient({
      'stats.get': (request) => answer(request.by === 'model' ? 'model' : 'day'),
      'prices.list': () => ({ prices: [], plans: [], defaultsDate: '2026-12-02' }),
    });
    renderWithStore(<StatisticsLayer />, client);
    const [action] = statisticsActions();
    act(() => action!.run());
    const region = await screen.findByRole('region', { name: 'Statistics' });
    await waitFor(() => expect(region.querySelectorAll('[data-testid="stats-bar"]')).toHaveLength(4));
    expect(screen.getByRole('img', { name: /Cost per day: 2026-11-01: \$0\.01 · 6\.2k tokens/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /mystery: model unknown · 6\.2k tokens/ })).toBeTruthy();
    expect(screen.getByTestId('stats-total').textContent).toContain('(prices of 2026-12-02)');
    expect(screen.getByTestId('stats-top-sessions').textContent).toContain('Add a flag');
  });

  it('while a store from before tokens were counted is still being read, says the figures are partial and asks again', async () => {
    movableTimers();
    let counting = true;
    const client = createFakeClient({
      'stats.get': (request) => ({ ...answer(request.by === 'model' ? 'model' : 'day'), counting }),
      'prices.list': () => ({ prices: [], plans: [], defaultsDate: '2026-12-02' }),
    });
    renderWithStore(<StatisticsLayer />, client);
    act(() => statisticsStore.getState().show());
    expect((await screen.findByRole('status')).textContent).toContain('these figures are partial');
    counting = false;
    // Time also moves on its own (shouldAdvanceTime): on a busy machine a poll may already be under way with the
    // old answer, so keep moving the clock until the view asks again after the count ended.
    for (let poll = 0; poll < 5 && screen.queryByTestId('stats-counting') !== null; poll++) await pollOnce();
    expect(screen.queryByTestId('stats-counting')).toBeNull();
  });

  it('a filter asks again with it', async () => {
    const client = createFakeClient({
      'stats.get': (request) => answer(request.by === 'model' ? 'model' : 'day'),
      'prices.list': () => ({ prices: [], plans: [], defaultsDate: '2026-12-02' }),
    });
    renderWithStore(<StatisticsLayer />, client);
    act(() => statisticsStore.getState().show());
    const project = await screen.findByTestId('stats-project');
    await act(async () => fireEvent.change(project, { target: { value: '/work/app' } }));
    await waitFor(() => expect(client.calls.some((call) => call.method === 'stats.get' && JSON.stringify(call.request).includes('"project":"/work/app"'))).toBe(true));
  });
});

describe('session header cost', () => {
  it('says the cost and how it is known; a subscription says so instead of dollars', async () => {
    const client = createFakeClient({ 'stats.session': ({ sessionId }) => ({ sessionId, total: sessionId === 'sub' ? figure({ usd: null, bases: ['subscription'], subscriptionTokens: 6200 }) : figure({}), counting: false }) });
    renderWithStore(
      <>
        <SessionCost sessionId="paid" revision={1} />
        <SessionCost sessionId="sub" revision={1} />
      </>,
      client,
    );
    await waitFor(() => expect(screen.getAllByTestId('session-cost')).toHaveLength(2));
    const [paid, sub] = screen.getAllByTestId('session-cost');
    expect(paid!.textContent).toBe('$0.01 · 6.2k tokens');
    expect(paid!.getAttribute('title')).toContain('priced (prices of 2026-12-02)');
    expect(sub!.textContent).toBe('subscription · 6.2k tokens');
  });
});

describe('session header cost while counting', () => {
  it('says "counting…" until the stored lines are counted, then the figure', async () => {
    movableTimers();
    let counting = true;
    const client = createFakeClient({
      'stats.session': ({ sessionId }) => (counting ? { sessionId, total: figure({ replies: 0 }), counting } : { sessionId, total: figure({}), counting }),
    });
    renderWithStore(<SessionCost sessionId="old" revision={1} />, client);
    expect((await screen.findByTestId('session-cost')).textContent).toBe('counting…');
    counting = false;
    await pollOnce();
    await waitFor(() => expect(screen.getByTestId('session-cost').textContent).toBe('$0.01 · 6.2k tokens'));
  });
});

describe('branch heads', () => {
  it('each child of a branch point leads down its newest line to a head', () => {
    const nodes = [
      nodeSummary('p'),
      nodeSummary('a1', { parentId: 'p' }),
      nodeSummary('a2', { parentId: 'a1' }),
      nodeSummary('b1', { parentId: 'p' }),
      nodeSummary('b2', { parentId: 'b1' }),
      nodeSummary('b3', { parentId: 'b1' }),
    ];
    expect(branchHeads(nodes, 'p')).toEqual([
      { startId: 'a1', headId: 'a2' },
      { startId: 'b1', headId: 'b3' },
    ]);
    expect(branchHeads(nodes, 'a2')).toEqual([]);
  });
});

describe('branch cost tooltip', () => {
  it('at a branch point, each branch costs root → head and the cheaper one is marked', async () => {
    const nodes = [nodeSummary('p'), nodeSummary('a1', { parentId: 'p' }), nodeSummary('b1', { parentId: 'p' }), nodeSummary('b2', { parentId: 'b1' })];
    const client = createFakeClient({
      'stats.branches': ({ headIds }) => ({ branches: headIds.map((headId) => ({ headId, total: figure({ usd: headId === 'a1' ? 0.5 : 0.2 }) })) }),
    });
    const { store } = renderWithStore(
      <BranchCostTip nodeId="p">
        <span data-testid="badge">2 branches</span>
      </BranchCostTip>,
      client,
    );
    store.setState({ graph: { session: { id: 's' } as never, nodes } });
    await act(async () => fireEvent.pointerEnter(screen.getByTestId('badge')));
    const tip = await screen.findByTestId('branch-cost-tip');
    expect(client.calls.find((call) => call.method === 'stats.branches')?.request).toEqual({ headIds: ['a1', 'b2'] });
    expect(tip.textContent).toContain('branch 1: $0.50');
    expect(tip.textContent).toContain('branch 2: $0.20 · 6.2k tokens — cheapest');
  });
});
