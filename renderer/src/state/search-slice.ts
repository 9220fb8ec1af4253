import type { SearchFilters, SearchHit, SearchIndexProgress } from '../../../shared/model';
import type { LoadStatus, SliceCreator } from './app-state';

export interface SearchSlice {
  readonly searchQuery: string;
  readonly searchHits: readonly SearchHit[];
  readonly searchIndexing: boolean;
  /** How far the full-text index is while `searchIndexing` (the hits come from that part). */
  readonly searchIndex: SearchIndexProgress | null;
  /** The filters of the current query (typed as `kind:` style tokens). */
  readonly searchFilters: SearchFilters | undefined;
  readonly searchStatus: LoadStatus;
  /** Every match of the query (up to the service's cap; `searchTotalCapped` says there are more). */
  readonly searchTotal: number;
  readonly searchTotalCapped: boolean;
  /** True while "Load more" fetches the next page. */
  readonly searchLoadingMore: boolean;
  /** Runs `search.query` for `query` (callers debounce); an empty query clears the results. */
  runSearch(query: string, filters?: SearchFilters): Promise<void>;
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
    searchIndex: null,
    searchFilters: undefined,
    searchStatus: 'idle',
    searchTotal: 0,
    searchTotalCapped: false,
    searchLoadingMore: false,
    async runSearch(query, filters) {
      current?.abort();
      current = null;
      more?.abort();
      more = null;
      const trimmed = query.trim();
      if (trimmed === '' && filters === undefined) {
        set({ searchQuery: query, searchHits: [], searchStatus: 'idle', searchTotal: 0, searchTotalCapped: false, searchLoadingMore: false });
        return;
      }
      const request = (current = new AbortController());
      set({ searchQuery: query, searchFilters: filters, searchStatus: 'loading' });
      try {
        const { hits, indexing, index, total, totalCapped } = await client.call(
          'search.query',
          { query: trimmed.slice(0, 1000), limit: SEARCH_LIMIT, ...(filters === undefined ? {} : { filters }) },
          { signal: request.signal },
        );
        if (request.signal.aborted) return;
        set({
          searchHits: hits,
          searchIndexing: indexing,
          searchIndex: index ?? null,
          searchStatus: 'ready',
          searchTotal: total,
          searchTotalCapped: totalCapped,
          searchLoadingMore: false,
        });
      } catch (error) {
        if (request.signal.aborted) return;
        set({ searchHits: [], searchStatus: 'error' });
        get().reportError(error, 'Search failed');
      }
    },
    async loadMoreSearch() {
      const { searchQuery, searchFilters, searchHits, searchStatus, searchTotal, searchLoadingMore } = get();
      if (searchStatus !== 'ready' || searchLoadingMore || searchHits.length >= searchTotal) return;
      const request = (more = new AbortController());
      set({ searchLoadingMore: true });
      try {
        const { hits, total, totalCapped } = await client.call(
          'search.query',
          { query: searchQuery.trim().slice(0, 1000), limit: SEARCH_LIMIT, offset: searchHits.length, ...(searchFilters === undefined ? {} : { filters: searchFilters }) },
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
