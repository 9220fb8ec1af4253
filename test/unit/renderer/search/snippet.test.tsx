import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SNIPPET_CLOSE as C, SNIPPET_OPEN as O } from '../../../../shared/model';
import { parseSnippet } from '../../../../renderer/src/search/snippet';
import { Snippet } from '../../../../renderer/src/search/Snippet';
import { SearchBox } from '../../../../renderer/src/search/SearchBox';
import { createFakeClient, graphFor, nodeDetail } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

describe('parseSnippet', () => {
  it('splits at the markers', () => {
    expect(parseSnippet(`a ${O}fix${C} b ${O}bug${C}`)).toEqual([
      { text: 'a ', match: false },
      { text: 'fix', match: true },
      { text: ' b ', match: false },
      { text: 'bug', match: true },
    ]);
    expect(parseSnippet('')).toEqual([]);
  });
});

describe('Snippet', () => {
  it('renders markup in a snippet as text, with matches in <mark>', () => {
    const { container } = render(<Snippet snippet={`run ${O}<script>alert(1)</script>${C} <img src=x onerror=alert(2)>`} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    const mark = container.querySelector('mark');
    expect(mark?.textContent).toBe('<script>alert(1)</script>');
    expect(container.textContent).toContain('<img src=x onerror=alert(2)>');
  });
});

describe('SearchBox', () => {
  it('searches as you type and opens the chosen hit at its node', async () => {
    const client = createFakeClient({
      'search.query': ({ query }) => ({
        hits: [{ sessionId: 's2', sessionTitle: 'Parser work', nodeId: 'n5', kind: 'assistant', timestamp: null, snippet: `${O}${query}${C} here` }],
        indexing: true,
        total: 1,
        totalCapped: false,
      }),
      'sessions.graph': ({ sessionId }) => graphFor(sessionId),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId),
    });
    const { store } = renderWithStore(<SearchBox />, client);
    const input = screen.getByTestId('search-input');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'parser' } });
    const hit = await screen.findByTestId('search-hit');
    expect(hit.getAttribute('data-session-id')).toBe('s2');
    expect(hit.getAttribute('data-node-id')).toBe('n5');
    expect(screen.getByText('indexing…')).toBeTruthy();
    expect(hit.querySelector('mark')?.textContent).toBe('parser');
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    await vi.waitFor(() => expect(store.getState().nodeDetail?.node.id).toBe('n5'));
    expect(store.getState().selectedSessionId).toBe('s2');
  });
});
