import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ArborClient } from '../client/arbor-client';
import type { AppState } from './app-state';
import { createImportSlice } from './import-slice';
import { createNoticeSlice } from './notice-slice';
import { createSearchSlice } from './search-slice';
import { createSelectionSlice } from './selection-slice';
import { createSessionsSlice } from './sessions-slice';
import { createTimeTravelSlice } from './time-travel-slice';

export type AppStore = StoreApi<AppState>;

export function createAppStore(client: ArborClient): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createNoticeSlice(client)(...a),
    ...createSessionsSlice(client)(...a),
    ...createSelectionSlice(client)(...a),
    ...createSearchSlice(client)(...a),
    ...createImportSlice(client)(...a),
    ...createTimeTravelSlice(client)(...a),
  }));
}
