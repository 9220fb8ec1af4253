/**
 * How the graph view hands over to the turn overview and back: "Fit" on a session too big to read
 * fitted lands on the overview; zooming the steps far out opens it around what was in view; zooming in
 * (or a double click) opens the turn under the pointer into its steps; a keyboard move leaves it for a
 * readable zoom around the target. The view mounts no step nodes while the overview shows.
 */
import { useCallback, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { Viewport } from '../mount-items';
import type { GraphStore } from '../graph-store';
import { fitViewport } from '../view-actions';
import {
  fitOverview,
  nearestTurn,
  OPEN_STEPS_ZOOM,
  OVERVIEW_ENTRY_STEP_ZOOM,
  OVERVIEW_FIT_THRESHOLD,
  overviewViewportAt,
  stepsViewportForTurn,
  STEPS_ENTRY_ZOOM,
  turnAtPoint,
  turnAtStepPoint,
  zoomAbout,
} from './overview-camera';
import { createOverviewStore, type OverviewStore } from './overview-store';

export interface SessionOverview {
  readonly overviewStore: OverviewStore;
  readonly active: boolean;
  /** "Fit": true when the overview took it (the session is too big for a readable step fit). */
  fit(): boolean;
  /** The step graph's camera moved (by the user): opens the overview when zoomed far out. */
  onStepsMoved(viewport: Viewport): void;
  /** Leaves the overview (for a keyboard move); true when it was showing. */
  leave(): boolean;
  openSteps(turn: number, screenX: number, screenY: number): void;
  /** The minimap's jump: the turn centred, in whichever view shows. */
  jumpToTurn(turn: number): void;
  /**
   * A zoom button while the overview shows: zooms about the pane's centre, and past OPEN_STEPS_ZOOM opens
   * the turn there into its steps, as the wheel does. False when the overview is not showing.
   */
  zoomBy(factor: number): boolean;
}

export function useSessionOverview(store: GraphStore, applyViewport: (viewport: Viewport) => void): SessionOverview {
  const [overviewStore] = useState<OverviewStore>(createOverviewStore);
  const active = useStore(overviewStore, (s) => s.active);

  const serves = useCallback((): boolean => {
    const { layout, width, height } = store.getState();
    return layout !== null && fitViewport(layout.layout, width, height, 0).zoom < OVERVIEW_FIT_THRESHOLD;
  }, [store]);

  const fit = useCallback((): boolean => {
    const state = store.getState();
    if (!state.structure || !serves()) {
      overviewStore.getState().hide();
      return false;
    }
    const { overview } = overviewStore.getState().overviewOf(state.structure);
    const selectedTurn = state.selectedNode >= 0 ? overview.turnOf[state.selectedNode]! : -1;
    overviewStore.getState().show(fitOverview(overview, state.width, state.height, selectedTurn));
    return true;
  }, [store, overviewStore, serves]);

  const onStepsMoved = useCallback(
    (viewport: Viewport) => {
      const state = store.getState();
      if (overviewStore.getState().active || viewport.zoom >= OVERVIEW_ENTRY_STEP_ZOOM || !state.structure || !state.layout || !state.rows || !serves()) return;
      const { overview } = overviewStore.getState().overviewOf(state.structure);
      const turn = turnAtStepPoint(state.structure, state.layout, state.rows, overview, viewport, state.width / 2, state.height / 2);
      overviewStore.getState().show(overviewViewportAt(overview, turn, state.width / 2, state.height / 2));
    },
    [store, overviewStore, serves],
  );

  const openSteps = useCallback(
    (turn: number, screenX: number, screenY: number) => {
      const state = store.getState();
      const { overview } = overviewStore.getState();
      if (!state.structure || !state.layout || !state.byNode || !overview) return;
      overviewStore.getState().hide();
      applyViewport(stepsViewportForTurn(state.structure, state.layout, state.byNode, overview, turn, screenX, screenY).viewport);
    },
    [store, overviewStore, applyViewport],
  );

  const jumpToTurn = useCallback(
    (turn: number) => {
      const state = store.getState();
      const view = overviewStore.getState();
      if (!view.overview) return;
      if (view.active) {
        overviewStore.getState().setCamera(overviewViewportAt(view.overview, turn, state.width / 2, state.height / 2, view.camera.zoom));
        return;
      }
      if (!state.structure || !state.layout || !state.byNode) return;
      const zoom = Math.max(state.viewport.zoom, STEPS_ENTRY_ZOOM);
      applyViewport(stepsViewportForTurn(state.structure, state.layout, state.byNode, view.overview, turn, state.width / 2, state.height / 3, zoom).viewport);
    },
    [store, overviewStore, applyViewport],
  );

  const zoomBy = useCallback(
    (factor: number): boolean => {
      const view = overviewStore.getState();
      if (!view.active || !view.overview || !view.grid) return false;
      const { width, height } = store.getState();
      const x = width / 2;
      const y = height / 2;
      const next = zoomAbout(view.camera, factor, x, y);
      if (next.zoom < OPEN_STEPS_ZOOM) {
        overviewStore.getState().setCamera(next);
        return true;
      }
      const under = turnAtPoint(view.overview, view.camera, x, y);
      const turn = under >= 0 ? under : nearestTurn(view.overview, view.grid, (x - view.camera.x) / view.camera.zoom, (y - view.camera.y) / view.camera.zoom);
      if (turn >= 0) openSteps(turn, x, y);
      return true;
    },
    [store, overviewStore, openSteps],
  );

  const leave = useCallback((): boolean => {
    if (!overviewStore.getState().active) return false;
    overviewStore.getState().hide();
    return true;
  }, [overviewStore]);

  return useMemo(
    () => ({ overviewStore, active, fit, onStepsMoved, leave, openSteps, jumpToTurn, zoomBy }),
    [overviewStore, active, fit, onStepsMoved, leave, openSteps, jumpToTurn, zoomBy],
  );
}
