/**
 * The whole renderer state, one zustand store built from slices (STYLE.md principle 10).
 * Components read it through narrow selectors; every slice talks to the main side only via ArborClient.
 */
import type { StateCreator } from 'zustand';
import type { ArborClient } from '../client/arbor-client';
import type { SessionsSlice } from './sessions-slice';
import type { SelectionSlice } from './selection-slice';
import type { SearchSlice } from './search-slice';
import type { ImportSlice } from './import-slice';
import type { NoticeSlice } from './notice-slice';
import type { TimeTravelSlice } from './time-travel-slice';

export type AppState = SessionsSlice & SelectionSlice & SearchSlice & ImportSlice & NoticeSlice & TimeTravelSlice;

/** A slice creator that gets the client injected, so tests can hand in a fake. */
export type SliceCreator<T> = (client: ArborClient) => StateCreator<AppState, [], [], T>;

/** Loading state of one remote value. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';
