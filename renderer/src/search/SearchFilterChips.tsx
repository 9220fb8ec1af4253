import { memo } from 'react';
import { hasKind, KIND_FILTERS, toggleKind } from './search-filters';

interface ChipsProps {
  readonly text: string;
  /** Filter tokens recognised in the text (other than kinds, which the chips show pressed). */
  readonly tokens: readonly string[];
  readonly onChange: (text: string) => void;
}

/**
 * One row of kind toggles under the search box; each adds or removes a `kind:` token in the text, so what
 * is typed and what is pressed never disagree. Buttons: Tab reaches them, Space/Enter toggles.
 */
export const SearchFilterChips = memo(function SearchFilterChips({ text, tokens, onChange }: ChipsProps) {
  const others = tokens.filter((token) => !token.toLowerCase().startsWith('kind:'));
  return (
    <div className="search-chips" role="group" aria-label="Filter by kind" data-testid="search-chips">
      {KIND_FILTERS.map((filter) => {
        const pressed = hasKind(text, filter.word);
        return (
          <button
            key={filter.word}
            type="button"
            className={`search-chip ${pressed ? 'is-pressed' : ''}`}
            aria-pressed={pressed}
            title={`kind:${filter.word}`}
            // Keeps the focus (and the open panel) in the search box when clicked.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onChange(toggleKind(text, filter.word))}
          >
            {filter.label}
          </button>
        );
      })}
      {others.map((token) => (
        <span key={token} className="search-chip is-pressed search-chip--token">
          {token}
        </span>
      ))}
    </div>
  );
});

/** What the syntax means, in one line at the foot of the results. */
export function SearchHint() {
  return (
    <div className="search__hint" data-testid="search-hint">
      <code>"exact phrase"</code> matches the words in order · other words match anywhere · filters: <code>kind:prompt</code>{' '}
      <code>session:this</code> <code>project:this</code> <code>agent:main</code> <code>after:2025-06-01</code>
    </div>
  );
}
