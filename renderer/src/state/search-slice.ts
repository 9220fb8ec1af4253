import type { SearchHit } from '../../../shared/model';
import type { LoadStatus, SliceCreator } from './app-state';

export interface SearchSlice {
  readonly searchQuery: string;
  readonly searchHits: readonly SearchHit[];
  readonly searchIndexing: boolean;
  readonly searchStatus: LoadStatus;
  /** Runs `search.query` for `query` (callers debounce); an empty query clears the results. */
  runSearch(query: string): Promise<void>;
  clearSearch(): void;
}

export const SEARCH_LIMIT = 50;

export const createSearchSlice: SliceCreator<SearchSlice> = (client) => (set, get) => {
  let current: AbortController | null = null;
  return {
    searchQuery: '',
    searchHits: [],
    searchIndexing: false,
    searchStatus: 'idle',
    async runSearch(query) {
      current?.abort();
      current = null;
      const trimmed = query.trim();
      if (trimmed === '') {
        set({ searchQuery: query, searchHits: [], searchStatus: 'idle' });
        return;
      }
      const request = (current = new AbortController());
      set({ searchQuery: query, searchStatus: 'loading' });
      try {
        const { hits, indexing } = await client.call(
          'search.query',
          { query: trimmed.slice(0, 1000), limit: SEARCH_LIMIT },
          { signal: request.signal },
        );
        if (request.signal.aborted) return;
        set({ searchHits: hits, searchIndexing: indexing, searchStatus: 'ready' });
      } catch (error) {
        if (request.signal.aborted) return;
        set({ searchHits: [], searchStatus: 'error' });
        get().reportError(error, 'Search failed');
      }
    },
    clearSearch() {
      current?.abort();
      current = null;
      set({ searchQuery: '', searchHits: [], searchStatus: 'idle' });
    },
  };
};
