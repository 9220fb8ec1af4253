/**
 * A kind×project token on every indexed row (issue 12: prompts in one project took 9–10 ms over a million
 * messages, where every other filter took ≤ 5 ms; search-query.ts). Rows indexed from now on carry it. The rows
 * indexed before get it in the background, from the rows the store keeps (search-facet-rewrite.ts): this
 * migration only records where that work ends, reads nothing, and searches match as before until it is done.
 * Numbered below 040, which was merged first: a store already at 040 gets it too (`isApplied`).
 */
import { FACET_REWRITE_KEYS } from '../search';
import { START_FACET_REWRITE_SQL } from '../search-facet-rewrite';
import type { Migration } from './index';

export const migration039KindProjectFacets: Migration = {
  version: 39,
  name: 'kind-project-facets',
  isApplied: (db) => db.prepare('SELECT 1 FROM meta WHERE key = ?').get(FACET_REWRITE_KEYS.until) !== undefined,
  up(db) {
    db.exec(START_FACET_REWRITE_SQL);
  },
};
