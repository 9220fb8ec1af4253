import { useStore } from 'zustand';
import type { SessionSummary } from '../../../shared/model';
import { type SessionSort, SESSION_SORTS, sizeUnitOf } from './session-groups';
import type { SessionListPrefsStore } from './session-list-prefs';

/** The list's sort, compact: a native select (keyboard and screen readers know it), remembered in prefs. */
export function SortControl({ prefs, sessions }: { readonly prefs: SessionListPrefsStore; readonly sessions: readonly SessionSummary[] }) {
  const sort = useStore(prefs, (s) => s.sort);
  // Size is the transcripts' bytes when the store has them, else the node count: the option says which.
  const labels: Record<SessionSort, string> = {
    activity: 'Last activity',
    size: sizeUnitOf(sessions) === 'bytes' ? 'Size (bytes)' : 'Size (nodes)',
    branches: 'Branches',
  };
  return (
    <label className="session-sort" title="Sort sessions, and projects by their first session">
      <select
        className="session-sort__select"
        data-testid="session-sort"
        aria-label="Sort sessions by"
        value={sort}
        onChange={(event) => prefs.getState().setSort(event.target.value as SessionSort)}
      >
        {SESSION_SORTS.map((key) => (
          <option key={key} value={key}>
            {labels[key]}
          </option>
        ))}
      </select>
    </label>
  );
}
