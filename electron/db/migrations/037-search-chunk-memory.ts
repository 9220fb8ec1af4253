/**
 * Fewer bytes written to fill the full-text index (issue 12: indexing wrote 2.64× a 239 MB transcript, beside
 * the import's own writes; 1.22× now). The indexer now ends each transaction at a bound of text (search.ts
 * CHUNK_TEXT_CHARS), so that FTS5 writes a few large segments instead of many small ones that its automerge
 * writes again. FTS5 also writes out what it holds in memory whenever that passes its `hashsize` (1 MiB by
 * default), which would cut such a chunk into several segments all the same: the bound is raised here, to
 * more than a chunk holds. Memory stays bounded by the chunk, not by this setting. Only the index's
 * configuration changes: its rows stay as they are, nothing is read again.
 */
import type { Migration } from './index';

/** Bytes of postings FTS5 may hold in memory before it writes them out as a segment. */
export const FTS_HASHSIZE = 32 * 1024 * 1024;

export const migration037SearchChunkMemory: Migration = {
  version: 37,
  name: 'search-chunk-memory',
  up(db) {
    db.exec(`INSERT INTO node_text (node_text, rank) VALUES ('hashsize', ${FTS_HASHSIZE});`);
  },
};
