/**
 * The graph's toolbar: which kinds of line to draw (prompts, replies, thinking, tool calls, errors,
 * system) and "show all lines" for the recording noise hidden by default. A change re-lays the graph out
 * (`onChange`); the selection stays in view, on its nearest shown step when a filter hid it.
 */
import { memo, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { FILTER_WORDS, LINE_FILTERS, type LineFilter } from '../../../shared/graph/line-filters';
import { usePaletteActions, type PaletteAction } from '../palette/palette-registry';
import type { GraphStore } from './graph-store';

export interface GraphToolbarProps {
  readonly store: GraphStore;
  onChange(): void;
}

function GraphToolbarView({ store, onChange }: GraphToolbarProps) {
  const filters = useStore(store, (s) => s.filters);
  const selectionHidden = useStore(store, (s) => s.nodes.some((node) => node.data.holdsSelection));

  const toggleKind = (filter: LineFilter) => {
    const hiddenKinds = new Set(filters.hiddenKinds);
    if (!hiddenKinds.delete(filter)) hiddenKinds.add(filter);
    store.getState().setFilters({ ...filters, hiddenKinds });
    onChange();
  };
  const toggleNoise = () => {
    // Turning "all lines" off hides again what single annotations opened.
    store.getState().setFilters({ ...filters, showNoise: !filters.showNoise, revealed: new Set() });
    onChange();
  };

  // The palette runs the same toggles; a ref keeps its actions registered once while reading current filters.
  const toggles = useRef({ toggleKind, toggleNoise });
  toggles.current = { toggleKind, toggleNoise };
  const actions = useMemo<PaletteAction[]>(
    () => [
      ...LINE_FILTERS.map((filter) => ({
        id: `filter.kind.${filter}`,
        title: `Show or hide ${FILTER_WORDS[filter].toLowerCase()} in the graph`,
        group: 'Filter',
        keywords: 'kind filter graph',
        run: () => toggles.current.toggleKind(filter),
      })),
      { id: 'filter.all-lines', title: 'Show or hide all lines (hooks, progress, caveats)', group: 'Filter', keywords: 'noise hook progress', run: () => toggles.current.toggleNoise() },
    ],
    [],
  );
  usePaletteActions(actions);

  return (
    <div className="graph-toolbar" role="toolbar" aria-label="Graph filters" data-testid="graph-toolbar" onKeyDown={(event) => event.stopPropagation()}>
      <span className="graph-toolbar__label">Show</span>
      {LINE_FILTERS.map((filter) => {
        const on = !filters.hiddenKinds.has(filter);
        return (
          <button
            key={filter}
            type="button"
            className={`graph-toolbar__chip filter-${filter}${on ? ' is-on' : ''}`}
            aria-pressed={on}
            data-testid={`graph-filter-${filter}`}
            title={on ? `Hide ${FILTER_WORDS[filter].toLowerCase()}` : `Show ${FILTER_WORDS[filter].toLowerCase()}`}
            onClick={() => toggleKind(filter)}
          >
            {FILTER_WORDS[filter]}
          </button>
        );
      })}
      <span className="graph-toolbar__sep" aria-hidden="true" />
      <button
        type="button"
        className={`graph-toolbar__chip is-toggle${filters.showNoise ? ' is-on' : ''}`}
        aria-pressed={filters.showNoise}
        data-testid="graph-show-all-lines"
        title="Hook and progress lines, empty replies, command caveats and stop-hook summaries are hidden by default and counted on their step (+N)"
        onClick={toggleNoise}
      >
        Show all lines
      </button>
      {selectionHidden ? (
        <span className="graph-toolbar__note" data-testid="selection-hidden-note" role="status">
          The selected line is hidden: shown on its nearest step
        </span>
      ) : null}
    </div>
  );
}

export const GraphToolbar = memo(GraphToolbarView);
