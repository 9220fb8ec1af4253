import { useStore } from 'zustand';
import { mergeWrap } from './wrap-preference';

/** Wraps long lines in every pane of the merge view (Alt+Z), remembered across reloads. */
export function WrapToggle() {
  const wrap = useStore(mergeWrap, (s) => s.wrap);
  return (
    <button
      type="button"
      className={`toggle-button merge-file__wrap ${wrap ? 'is-on' : ''}`}
      aria-pressed={wrap}
      aria-keyshortcuts="Alt+Z"
      title="Wrap long lines in every pane (Alt+Z)"
      onClick={() => mergeWrap.getState().toggle()}
      data-testid="merge-wrap"
    >
      Wrap <kbd aria-hidden="true">Alt Z</kbd>
    </button>
  );
}
