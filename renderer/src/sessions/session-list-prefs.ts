/**
 * How the user left the sessions list: its sort and the projects folded to their header. Remembered across
 * reloads (a preference of the window, like the conversation mode), not part of any session.
 */
import { createStore } from 'zustand/vanilla';
import { SESSION_SORTS, type SessionSort } from './session-groups';

const PREFS_KEY = 'arbor.sessions-list.v1';
/** Bounds what a years-old profile keeps: folding is cheap to redo, storage is not free. */
const MAX_COLLAPSED = 2000;

export interface SessionListPrefs {
  readonly sort: SessionSort;
  /** Project keys shown folded. */
  readonly collapsed: ReadonlySet<string>;
  setSort(sort: SessionSort): void;
  setCollapsed(key: string, collapsed: boolean): void;
}

function load(storage: Storage | null): { sort: SessionSort; collapsed: Set<string> } {
  try {
    const saved = JSON.parse(storage?.getItem(PREFS_KEY) ?? 'null') as { sort?: unknown; collapsed?: unknown } | null;
    const sort = SESSION_SORTS.find((s) => s === saved?.sort) ?? 'activity';
    const collapsed = Array.isArray(saved?.collapsed) ? saved.collapsed.filter((key): key is string => typeof key === 'string') : [];
    return { sort, collapsed: new Set(collapsed) };
  } catch {
    // A corrupt entry falls back to the defaults.
    return { sort: 'activity', collapsed: new Set() };
  }
}

export function createSessionListPrefs(storage: Storage | null) {
  const saved = load(storage);
  return createStore<SessionListPrefs>()((set, get) => {
    const save = () => {
      try {
        storage?.setItem(PREFS_KEY, JSON.stringify({ sort: get().sort, collapsed: [...get().collapsed].slice(-MAX_COLLAPSED) }));
      } catch {
        // A full or blocked storage only loses the remembered choice.
      }
    };
    return {
      sort: saved.sort,
      collapsed: saved.collapsed,
      setSort(sort) {
        set({ sort });
        save();
      },
      setCollapsed(key, collapsed) {
        if (get().collapsed.has(key) === collapsed) return;
        const next = new Set(get().collapsed);
        if (collapsed) next.add(key);
        else next.delete(key);
        set({ collapsed: next });
        save();
      },
    };
  });
}

export type SessionListPrefsStore = ReturnType<typeof createSessionListPrefs>;

const browserStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The window's one store of list preferences. */
export const sessionListPrefs = createSessionListPrefs(browserStorage());
