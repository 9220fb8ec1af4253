/**
 * Which project's lineage view is open (issue 14). Its own small store: the view is opened from the sessions
 * list's project header and from the palette, and read by one layer.
 */
import { createStore, useStore } from 'zustand';

interface ProjectLineageState {
  /** The project key (the list's group key) whose view is open; null: closed. */
  readonly project: string | null;
  open(project: string): void;
  close(): void;
}

export const projectLineageStore = createStore<ProjectLineageState>((set) => ({
  project: null,
  open: (project) => set({ project }),
  close: () => set({ project: null }),
}));

export function useOpenProject(): string | null {
  return useStore(projectLineageStore, (state) => state.project);
}

export function openProjectLineage(project: string): void {
  projectLineageStore.getState().open(project);
}
