import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { absoluteTime, formatCount, KIND_LABELS, relativeTime } from '../app/format';
import { typingInto } from '../app/shortcuts';
import { SEARCH_LIMIT } from '../state/search-slice';
import { SearchFilterChips, SearchHint } from './SearchFilterChips';
import { parseSearchInput } from './search-filters';
import { Snippet } from './Snippet';

export const SEARCH_DEBOUNCE_MS = 180;

/** `/` (outside a field) or Ctrl/Cmd+Shift+F focuses the search; Ctrl/Cmd+K belongs to the command palette. */
export function isSearchShortcut(event: globalThis.KeyboardEvent): boolean {
  if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'f') return true;
  return event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingInto(event.target);
}

/** The header search: full-text over every session; choosing a hit opens the session at that node. */
export function SearchBox() {
  const runSearch = useAppState((s) => s.runSearch);
  const clearSearch = useAppState((s) => s.clearSearch);
  const hits = useAppState((s) => s.searchHits);
  const status = useAppState((s) => s.searchStatus);
  const indexing = useAppState((s) => s.searchIndexing);
  const index = useAppState((s) => s.searchIndex);
  const searchedFilters = useAppState((s) => s.searchFilters);
  const sessionId = useAppState((s) => s.selectedSessionId);
  const project = useAppState((s) => s.graph?.session.project ?? null);
  const searchedFor = useAppState((s) => s.searchQuery);
  const total = useAppState((s) => s.searchTotal);
  const totalCapped = useAppState((s) => s.searchTotalCapped);
  const loadingMore = useAppState((s) => s.searchLoadingMore);
  const loadMore = useAppState((s) => s.loadMoreSearch);
  const openSession = useAppState((s) => s.openSession);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [cursor, setCursor] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!event.defaultPrevented && isSearchShortcut(event)) {
        event.preventDefault();
        inputRef.current?.focus();
        inputRef.current?.select();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const parsed = useMemo(() => parseSearchInput(text, { sessionId, project }), [text, sessionId, project]);
  const filtersKey = JSON.stringify(parsed.filters ?? null);
  useEffect(() => {
    const timer = setTimeout(
      () => void runSearch(parsed.query, parsed.filters),
      text.trim() === '' ? 0 : SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
    // filtersKey stands for parsed.filters: a new object with the same filters must not search again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [parsed.query, filtersKey, runSearch]);

  // A new query starts at the top; more hits of the same query keep the cursor where it was.
  useEffect(() => setCursor(0), [searchedFor]);
  const hasMore = hits.length < total;
  /** The cursor may rest on "Load more" (index hits.length) as well as on a hit. */
  const lastIndex = hasMore ? hits.length : hits.length - 1;

  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  const choose = (hit: SearchHit) => {
    setOpen(false);
    inputRef.current?.blur();
    void openSession(hit.sessionId, hit.nodeId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        setCursor((c) => Math.min(lastIndex, c + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setCursor((c) => Math.max(0, c - 1));
        break;
      case 'Enter': {
        const hit = hits[cursor];
        if (hit) choose(hit);
        else if (hasMore && cursor === hits.length) void loadMore();
        break;
      }
      case 'Escape':
        if (text) {
          setText('');
          clearSearch();
        } else {
          inputRef.current?.blur();
        }
        setOpen(false);
        break;
      default:
        break;
    }
  };

  const stale = searchedFor.trim() !== parsed.query.trim() || JSON.stringify(searchedFilters ?? null) !== filtersKey;
  const showPanel = open && text.trim() !== '';
  return (
    <div className="search" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setOpen(false)}>
      <input
        ref={inputRef}
        id="arbor-search"
        className="text-input search__input"
        data-testid="search-input"
        type="search"
        role="combobox"
        aria-expanded={showPanel}
        aria-controls="search-results"
        aria-label="Search all sessions"
        placeholder="Search all sessions"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <kbd className="search__shortcut" aria-hidden>
        /
      </kbd>
      {showPanel ? (
        <div className="search__panel" id="search-results" role="listbox" ref={listRef}>
          <div className="search__status">
            {status === 'loading' || stale ? 'Searching…' : hitCount(hits.length, total, totalCapped)}
            {indexing ? <span className="search__indexing">{indexingNote(index)}</span> : null}
          </div>
          <SearchFilterChips text={text} tokens={parsed.tokens} onChange={setText} />
          {status === 'ready' && !stale && hits.length === 0 ? (
            <div className="search__empty">
              Nothing found for “{text.trim()}”{indexing ? ' in the part indexed so far' : ''}.
            </div>
          ) : null}
          {hits.map((hit, i) => (
            <SearchHitRow key={`${hit.nodeId}-${i}`} hit={hit} index={i} active={i === cursor} onChoose={choose} onHover={setCursor} />
          ))}
          {hasMore && !stale ? (
            <div
              className={`search__more ${cursor === hits.length ? 'is-active' : ''}`}
              data-testid="search-more"
              data-index={hits.length}
              role="option"
              aria-selected={cursor === hits.length}
              tabIndex={-1}
              onMouseDown={(e) => {
                e.preventDefault();
                void loadMore();
              }}
              onMouseMove={() => setCursor(hits.length)}
            >
              {loadingMore ? 'Loading…' : `Load more (${formatCount(Math.min(total - hits.length, SEARCH_LIMIT))} of ${formatCount(total - hits.length)}${totalCapped ? '+' : ''} more)`}
            </div>
          ) : null}
          <SearchHint />
        </div>
      ) : null}
    </div>
  );
}

/** "indexed 40% — results so far": the hits come from the part of the store indexed yet. */
export function indexingNote(index: { indexed: number; total: number } | null): string {
  if (index === null || index.total === 0) return 'indexing…';
  const percent = Math.min(99, Math.floor((index.indexed / index.total) * 100));
  return `indexed ${percent}% — results so far`;
}

/** "1 hit", "50 of 1,234 hits", "50 of 1,000+ hits" (a common word is counted only so far). */
export function hitCount(shown: number, total: number, capped: boolean): string {
  const all = capped ? `${formatCount(total)}+` : formatCount(total);
  const noun = total === 1 && !capped ? 'hit' : 'hits';
  return shown >= total && !capped ? `${all} ${noun}` : `${formatCount(shown)} of ${all} ${noun}`;
}

interface SearchHitRowProps {
  readonly hit: SearchHit;
  readonly index: number;
  readonly active: boolean;
  readonly onChoose: (hit: SearchHit) => void;
  readonly onHover: (index: number) => void;
}

const SearchHitRow = memo(function SearchHitRow({ hit, index, active, onChoose, onHover }: SearchHitRowProps) {
  return (
    <div
      className={`search-hit ${active ? 'is-active' : ''}`}
      data-testid="search-hit"
      data-session-id={hit.sessionId}
      data-node-id={hit.nodeId}
      data-index={index}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      // mousedown, not click: the input's blur would close the panel before a click lands.
      onMouseDown={(e) => {
        e.preventDefault();
        onChoose(hit);
      }}
      onMouseMove={() => !active && onHover(index)}
    >
      <div className="search-hit__head">
        <span className={`kind-dot kind-dot--${hit.kind}`} title={KIND_LABELS[hit.kind]} />
        <span className="search-hit__title">{hit.sessionTitle}</span>
        <span className="search-hit__time" title={absoluteTime(hit.timestamp)}>
          {relativeTime(hit.timestamp)}
        </span>
      </div>
      <div className="search-hit__snippet">
        <span className="search-hit__kind">{KIND_LABELS[hit.kind]}</span> <Snippet snippet={hit.snippet} />
      </div>
    </div>
  );
});
