/**
 * The overview's own state, one store per graph view: whether the overview is showing, its camera, the
 * turn overview of the open session (from the layout worker, or built here on a need that comes first), and whether the minimap is hidden. The camera
 * changes every frame while panning, so the canvas subscribes to it directly instead of re-rendering React.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SessionStructure } from '../../../../shared/graph/session-structure';
import { buildTurnOverview, indexTurns, type TurnGrid, type TurnOverview } from '../../../../shared/graph/turn-overview';
import type { Viewport } from '../mount-items';

export interface OverviewViewState {
  readonly active: boolean;
  readonly camera: Viewport;
  readonly structure: SessionStructure | null;
  readonly overview: TurnOverview | null;
  readonly grid: TurnGrid | null;
  readonly minimapHidden: boolean;
  /** The turn overview of `structure`, built once per structure. */
  overviewOf(structure: SessionStructure): { overview: TurnOverview; grid: TurnGrid };
  /** The layout worker's overview of `structure` arrived (ignored when one is already known for it). */
  setOverview(structure: SessionStructure, overview: TurnOverview): void;
  show(camera: Viewport): void;
  hide(): void;
  setCamera(camera: Viewport): void;
  setMinimapHidden(hidden: boolean): void;
}

export type OverviewStore = StoreApi<OverviewViewState>;

const MINIMAP_KEY = 'arbor.graph.minimapHidden';

function readMinimapHidden(): boolean {
  try {
    return globalThis.localStorage?.getItem(MINIMAP_KEY) === '1';
  } catch {
    return false; // storage refused (a sandboxed or private window): shown, as by default
  }
}

export function createOverviewStore(): OverviewStore {
  return createStore<OverviewViewState>()((set, get) => ({
    active: false,
    camera: { x: 0, y: 0, zoom: 1 },
    structure: null,
    overview: null,
    grid: null,
    minimapHidden: readMinimapHidden(),
    overviewOf(structure) {
      const state = get();
      if (state.structure === structure && state.overview !== null && state.grid !== null) return { overview: state.overview, grid: state.grid };
      const overview = buildTurnOverview(structure);
      const grid = indexTurns(overview);
      set({ structure, overview, grid });
      return { overview, grid };
    },
    setOverview(structure, overview) {
      const state = get();
      if (state.structure === structure && state.overview !== null) return;
      set({ structure, overview, grid: indexTurns(overview) });
    },
    show: (camera) => set({ active: true, camera }),
    hide: () => set({ active: false }),
    setCamera: (camera) => set({ camera }),
    setMinimapHidden(hidden) {
      try {
        globalThis.localStorage?.setItem(MINIMAP_KEY, hidden ? '1' : '0');
      } catch {
        // Not remembered across launches, still hidden now.
      }
      set({ minimapHidden: hidden });
    },
  }));
}
