import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexingNote, SearchBox } from '../../../../renderer/src/search/SearchBox';
import { parseSearchInput, toggleKind } from '../../../../renderer/src/search/search-filters';
import { createFakeClient } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const none = { sessionId: null, project: null };

describe('parseSearchInput', () => {
  it('takes filter tokens out of the text and leaves words and phrases as the query', () => {
    expect(parseSearchInput('fix kind:prompt,reply "merge preview" after:2025-06-01', none)).toEqual({
      query: 'fix "merge preview"',
      filters: { kinds: ['user', 'assistant'], from: '2025-06-01' },
      tokens: ['kind:prompt,reply', 'after:2025-06-01'],
    });
    expect(parseSearchInput('parser before:2025-01-31 agent:sub', none).filters).toEqual({ to: '2025-01-31', agent: 'subagent' });
    expect(parseSearchInput('kind:results', none).filters).toEqual({ kinds: ['tool_result', 'error'] });
  });

  it('resolves session:this and project:this to the open session', () => {
    const open = { sessionId: 's9', project: '/work/app' };
    expect(parseSearchInput('x session:this project:this', open).filters).toEqual({ sessionIds: ['s9'], projects: ['/work/app'] });
    // Without an open session they are plain words.
    expect(parseSearchInput('x session:this', none)).toMatchObject({ query: 'x session:this', filters: undefined });
  });

  it('keeps unknown or malformed tokens, and tokens inside quotes, as text', () => {
    expect(parseSearchInput('http://host:80 kind:nonsense after:yesterday', none)).toMatchObject({
      query: 'http://host:80 kind:nonsense after:yesterday',
      filters: undefined,
    });
    expect(parseSearchInput('"kind:prompt inside"', none)).toMatchObject({ query: '"kind:prompt inside"', filters: undefined });
  });

  it('toggles a kind token in the text', () => {
    expect(toggleKind('parser', 'prompt')).toBe('parser kind:prompt ');
    expect(toggleKind('parser kind:prompt ', 'prompt')).toBe('parser');
  });
});

describe('SearchBox filters and partial answers', () => {
  it('sends typed filters, toggles them with the chips, and says how much is indexed', async () => {
    const client = createFakeClient({
      'search.query': () => ({ hits: [], indexing: true, index: { indexed: 40, total: 100 }, total: 0, totalCapped: false }),
    });
    renderWithStore(<SearchBox />, client);
    const input = screen.getByTestId('search-input');
    act(() => void fireEvent.focus(input));
    act(() => void fireEvent.change(input, { target: { value: 'parser kind:reply' } }));
    await vi.waitFor(() => expect(client.calls.at(-1)?.request).toEqual({ query: 'parser', limit: 50, filters: { kinds: ['assistant'] } }));
    expect(await screen.findByText('indexed 40% — results so far')).toBeTruthy();
    expect(screen.getByText(/in the part indexed so far/)).toBeTruthy();
    const prompts = screen.getByRole('button', { name: 'Prompts' });
    expect(prompts.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: 'Replies' }).getAttribute('aria-pressed')).toBe('true');
    act(() => void fireEvent.click(prompts));
    expect((input as HTMLInputElement).value).toBe('parser kind:reply kind:prompt ');
    await vi.waitFor(() => expect(client.calls.at(-1)?.request).toMatchObject({ filters: { kinds: ['assistant', 'user'] } }));
    expect(screen.getByTestId('search-hint').textContent).toContain('"exact phrase"');
  });

  it('reads an unknown progress as plain indexing', () => {
    expect(indexingNote(null)).toBe('indexing…');
    expect(indexingNote({ indexed: 999, total: 1000 })).toBe('indexed 99% — results so far');
  });
});
