import { useAppState } from '../app/app-context';
import type { InspectorTab } from '../state/time-travel-slice';
import '../time-travel/time-travel.css';

const TABS: ReadonlyArray<{ readonly tab: InspectorTab; readonly label: string }> = [
  { tab: 'content', label: 'Content' },
  { tab: 'files', label: 'Files' },
];

/** What the inspector shows of the node: the transcript's content, or the workspace's files at that step. */
export function InspectorTabs() {
  const current = useAppState((s) => s.inspectorTab);
  const setTab = useAppState((s) => s.setInspectorTab);
  return (
    <div className="inspector-tabs" role="tablist" aria-label="Inspector view">
      {TABS.map(({ tab, label }) => (
        <button
          key={tab}
          type="button"
          role="tab"
          className={`inspector-tab${current === tab ? ' is-active' : ''}`}
          aria-selected={current === tab}
          data-testid={`inspector-tab-${tab}`}
          onClick={() => setTab(tab)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
