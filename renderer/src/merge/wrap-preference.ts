/**
 * Whether the merge view wraps long lines in its four editors: a preference of the window, kept in
 * localStorage so it survives reloads (and another merge), like the graph's minimap.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export const WRAP_KEY = 'arbor.merge.wrap';

export interface WrapPreference {
  readonly wrap: boolean;
  setWrap(wrap: boolean): void;
  toggle(): void;
}

/** `storage` null: a sandboxed or private window that refuses it; the toggle still works for this page. */
export function createWrapPreference(storage: Pick<Storage, 'getItem' | 'setItem'> | null): StoreApi<WrapPreference> {
  const read = (): boolean => {
    try {
      return storage?.getItem(WRAP_KEY) === '1';
    } catch {
      return false;
    }
  };
  return createStore<WrapPreference>()((set, get) => ({
    wrap: read(),
    setWrap(wrap) {
      try {
        storage?.setItem(WRAP_KEY, wrap ? '1' : '0');
      } catch {
        // Not remembered, still applied.
      }
      set({ wrap });
    },
    toggle: () => get().setWrap(!get().wrap),
  }));
}

const browserStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The window's one preference. */
export const mergeWrap = createWrapPreference(browserStorage());

/** Alt+Z, VS Code's key for word wrap; by physical key so it works whatever Alt types on the layout. */
export function isWrapShortcut(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === 'KeyZ';
}
