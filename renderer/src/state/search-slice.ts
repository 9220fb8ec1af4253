import type { SearchHit } from '../../../shared/model';
import type { LoadStatus, SliceCreator } from './app-state';

export interface SearchSlice {
  readonly searchQuery: string;
  readonly searchHits: readonly SearchHit[];
  readonly searchIndexing: boolean;
  readonly searchStatus: LoadStatus;
  /** Every match of the query (up to the service's cap; `searchTotalCapped` says there are more). */
  readonly searchTotal: number;
  readonly searchTotalCapped: boolean;
  /** True while "Load more" fetches the next page. */
  readonly searchLoadingMore: boolean;
  /** Runs `search.query` for `query` (callers debounce); an empty query clears the results. */
  runSearch(query: string): Promise<void>;
  /** Appends the next SEARCH_LIMIT hits of the current query. */
  loadMoreSearch(): Promise<void>;
  clearSearch(): void;
}

export const SEARCH_LIMIT = 50;

export const createSearchSlice: SliceCreator<SearchSlice> = (client) => (set, get) => {
  let current: AbortController | null = null;
  let more: AbortController | null = null;
  return {
    searchQuery: '',
    searchHits: [],
    searchIndexing: false,
    searchStatus: 'idle',
    searchTotal: 0,
    searchTotalCapped: false,
    searchLoadingMore: false,
    async runSearch(query) {
      current?.abort();
      current = null;
      more?.abort();
      more = null;
      const trimmed = query.trim();
      if (trimmed === '') {
        set({ searchQuery: query, searchHits: [], searchStatus: 'idle', searchTotal: 0, searchTotalCapped: false, searchLoadingMore: false });
        return;
      }
      const request = (current = new AbortController());
      set({ searchQuery: query, searchStatus: 'loading' });
      try {
        const { hits, indexing, total, totalCapped } = await client.call(
          'search.query',
          { query: trimmed.slice(0, 1000), limit: SEARCH_LIMIT },
          { signal: request.signal },
        );
        if (request.signal.aborted) return;
        set({ searchHits: hits, searchIndexing: indexing, searchStatus: 'ready', searchTotal: total, searchTotalCapped: totalCapped, searchLoadingMore: false });
      } catch (error) {
        if (request.signal.aborted) return;
        set({ searchHits: [], searchStatus: 'error' });
        get().reportError(error, 'Search failed');
      }
    },
    async loadMoreSearch() {
      const { searchQuery, searchHits, searchStatus, searchTotal, searchLoadingMore } = get();
      if (searchStatus !== 'ready' || searchLoadingMore || searchHits.length >= searchTotal) return;
      const request = (more = new AbortController());
      set({ searchLoadingMore: true });
      try {
        const { hits, total, totalCapped } = await client.call(
          'search.query',
          { query: searchQuery.trim().slice(0, 1000), limit: SEARCH_LIMIT, offset: searchHits.length },
          { signal: request.signal },
        );
        if (request.signal.aborted) return;
        // A page that brings nothing new (the index changed under it) ends the list instead of looping.
        const seen = new Set(searchHits.map((hit) => hit.nodeId));
        const fresh = hits.filter((hit) => !seen.has(hit.nodeId));
        set({
          searchHits: [...searchHits, ...fresh],
          searchTotal: fresh.length === 0 ? searchHits.length : total,
          searchTotalCapped: fresh.length === 0 ? false : totalCapped,
          searchLoadingMore: false,
        });
      } catch (error) {
        if (request.signal.aborted) return;
        set({ searchLoadingMore: false });
        get().reportError(error, 'Search failed');
      }
    },
    clearSearch() {
      current?.abort();
      current = null;
      more?.abort();
      more = null;
      set({ searchQuery: '', searchHits: [], searchStatus: 'idle', searchTotal: 0, searchTotalCapped: false, searchLoadingMore: false });
    },
  };
};
