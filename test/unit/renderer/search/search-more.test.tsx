import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../../../shared/model';
import { hitCount, SearchBox } from '../../../../renderer/src/search/SearchBox';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const hit = (i: number): SearchHit => ({ sessionId: 's1', sessionTitle: 'T', nodeId: `n${i}`, kind: 'assistant', timestamp: null, snippet: `hit ${i}` });
/** A fake index of `total` matches, paged like the service. */
const pagedSearch = (total: number) =>
  createFakeClient({
    'search.query': ({ limit = 50, offset = 0 }) => ({
      hits: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, k) => hit(offset + k)),
      indexing: false,
      total,
      totalCapped: false,
    }),
  });

describe('search totals and load more', () => {
  it('says how many hits there are in all', () => {
    expect(hitCount(1, 1, false)).toBe('1 hit');
    expect(hitCount(7, 7, false)).toBe('7 hits');
    expect(hitCount(50, 120, false)).toBe('50 of 120 hits');
    expect(hitCount(50, 1000, true)).toBe('50 of 1,000+ hits');
  });

  it('loads the next page after the hits so far, and stops at the total', async () => {
    const client = pagedSearch(120);
    const store = createAppStore(client);
    await store.getState().runSearch('parser');
    expect(store.getState().searchHits).toHaveLength(50);
    expect(store.getState().searchTotal).toBe(120);
    await store.getState().loadMoreSearch();
    await store.getState().loadMoreSearch();
    expect(store.getState().searchHits.map((h) => h.nodeId)).toEqual(Array.from({ length: 120 }, (_, i) => `n${i}`));
    const calls = client.calls.length;
    await store.getState().loadMoreSearch();
    expect(client.calls).toHaveLength(calls);
    expect(client.calls[1]).toEqual({ method: 'search.query', request: { query: 'parser', limit: 50, offset: 50 } });
  });

  it('regression guard: a page that brings no new hit ends the list instead of offering "Load more" forever', async () => {
    const client = createFakeClient({ 'search.query': () => ({ hits: [hit(0)], indexing: false, total: 5, totalCapped: false }) });
    const store = createAppStore(client);
    await store.getState().runSearch('x');
    await store.getState().loadMoreSearch();
    expect(store.getState().searchTotal).toBe(1);
    expect(store.getState().searchHits).toHaveLength(1);
  });

  it('the panel shows the total and a Load more row that the keyboard reaches', async () => {
    const client = pagedSearch(60);
    renderWithStore(<SearchBox />, client);
    const input = screen.getByTestId('search-input');
    act(() => void fireEvent.focus(input));
    act(() => void fireEvent.change(input, { target: { value: 'parser' } }));
    await vi.waitFor(() => expect(screen.getByText('50 of 60 hits')).toBeTruthy());
    expect(screen.getByTestId('search-more').textContent).toContain('Load more');
    for (let i = 0; i < 50; i += 1) act(() => void fireEvent.keyDown(input, { key: 'ArrowDown' }));
    expect(screen.getByTestId('search-more').getAttribute('aria-selected')).toBe('true');
    await act(async () => void fireEvent.keyDown(input, { key: 'Enter' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('search-hit')).toHaveLength(60));
    expect(screen.queryByTestId('search-more')).toBeNull();
    expect(screen.getByText('60 hits')).toBeTruthy();
  });
});
