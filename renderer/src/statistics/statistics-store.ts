/**
 * Whether the Statistics view is open (issue 15). Its own small store: opened from the header's button and the
 * palette, read by one layer.
 */
import { createStore, useStore } from 'zustand';

interface StatisticsState {
  readonly open: boolean;
  show(): void;
  close(): void;
}

export const statisticsStore = createStore<StatisticsState>((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

export function useStatisticsOpen(): boolean {
  return useStore(statisticsStore, (state) => state.open);
}

export function openStatistics(): void {
  statisticsStore.getState().show();
}
