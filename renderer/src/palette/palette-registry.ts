/**
 * Actions the command palette can run, registered by whatever owns them while it is mounted (the merge
 * action while a pair is chosen; the conversation view its toggle; the graph its kind filters). The
 * palette lists what is registered now, so it never offers an action that nothing can carry out.
 */
import { useEffect, useSyncExternalStore } from 'react';

export interface PaletteAction {
  /** Stable and unique: `fork`, `conversation.toggle`, `filter.kind.thinking`. */
  readonly id: string;
  /** What the user reads and types against: "Fork from the selected node…". */
  readonly title: string;
  /** A heading to group by: Time travel, View, Filter… */
  readonly group: string;
  /** The shortcut shown beside it, as in app/shortcuts.ts. */
  readonly keys?: string;
  /** More words that find it ("branch" finds fork). */
  readonly keywords?: string;
  run(): void;
}

export interface PaletteRegistry {
  /** Adds the actions; the returned disposer removes exactly these. A later id replaces an earlier one. */
  register(actions: readonly PaletteAction[]): () => void;
  actions(): readonly PaletteAction[];
  subscribe(listener: () => void): () => void;
}

export function createPaletteRegistry(): PaletteRegistry {
  const entries = new Map<string, PaletteAction>();
  const listeners = new Set<() => void>();
  let snapshot: readonly PaletteAction[] = [];
  const changed = () => {
    snapshot = [...entries.values()];
    for (const listener of listeners) listener();
  };
  return {
    register(actions) {
      for (const action of actions) entries.set(action.id, action);
      changed();
      return () => {
        for (const action of actions) if (entries.get(action.id) === action) entries.delete(action.id);
        changed();
      };
    },
    actions: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's one registry. */
export const paletteRegistry: PaletteRegistry = createPaletteRegistry();

/**
 * Registers actions while the calling component is mounted. Pass a memoized array (useMemo): a new array
 * re-registers. Actions read current state when run, so they rarely need to change.
 */
export function usePaletteActions(actions: readonly PaletteAction[], registry: PaletteRegistry = paletteRegistry): void {
  useEffect(() => registry.register(actions), [actions, registry]);
}

export function useRegisteredActions(registry: PaletteRegistry = paletteRegistry): readonly PaletteAction[] {
  return useSyncExternalStore(registry.subscribe, registry.actions, registry.actions);
}
