import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState } from '../state/app-state';
import type { AppStore } from '../state/store';
import type { ArborClient } from '../client/arbor-client';

interface AppContextValue {
  readonly store: AppStore;
  readonly client: ArborClient;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppProvider({ store, client, children }: { store: AppStore; client: ArborClient; children: ReactNode }) {
  return <AppContext.Provider value={{ store, client }}>{children}</AppContext.Provider>;
}

function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('Arbor components must be rendered inside <AppProvider>');
  return value;
}

/** Reads one narrow piece of state; the component re-renders only when that piece changes. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  return useStore(useAppContext().store, selector);
}

export function useAppStoreApi(): AppStore {
  return useAppContext().store;
}

export function useArborClient(): ArborClient {
  return useAppContext().client;
}

/** The store and client, or null outside <AppProvider> (a graph drawn on its own, as its tests do). */
export function useOptionalAppContext(): AppContextValue | null {
  return useContext(AppContext);
}
