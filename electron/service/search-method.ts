/**
 * `search.query`: full-text search over every session, answered from what the background indexer has done
 * so far (the result says how far that is).
 */
import type { ArborApi } from '../../shared/contract';
import type { SessionStore } from '../db/session-store';

const DEFAULT_SEARCH_LIMIT = 50;
/** Matches counted for "N hits" at most; past it the UI says "1,000+". A common word must not count a million rows. */
export const SEARCH_TOTAL_CAP = 1000;

export function createSearchMethod(store: SessionStore, importing: () => boolean): ArborApi['search.query'] {
  return async ({ query, limit, offset, filters }) => {
    const index = store.indexProgress();
    const { hits, total, capped } = store.searchPage(query, { limit: limit ?? DEFAULT_SEARCH_LIMIT, offset: offset ?? 0, cap: SEARCH_TOTAL_CAP, filters });
    return {
      hits,
      indexing: importing() || index.indexed < index.total,
      index,
      total,
      totalCapped: capped,
    };
  };
}
