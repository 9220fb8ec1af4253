/**
 * The turn overview drawn on one canvas over the graph pane when zoomed out on a big session: one card
 * per turn, branch points and heads marked and labelled. Pan by scroll or drag, zoom with Ctrl/⌘ + scroll
 * or a pinch; zooming in far enough opens the turn under the pointer into its steps, as does a double
 * click. A click selects the turn's prompt. One draw per animation frame, only while something changed.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { NodeId } from '../../../../shared/model';
import type { WorkspaceNodeKind } from '../../../../shared/operations';
import type { GraphStore } from '../graph-store';
import { CLICK_SLOP_PX } from '../view-actions';
import { createFrame, drawOverview, labelText, markName, readOverviewColors, statsText, type OverviewFrame } from './draw-overview';
import { nearestTurn, OPEN_STEPS_ZOOM, turnAtPoint, zoomAbout } from './overview-camera';
import type { OverviewStore } from './overview-store';

export interface OverviewLayerProps {
  readonly store: GraphStore;
  readonly overviewStore: OverviewStore;
  readonly workspaceKinds: ReadonlyMap<NodeId, WorkspaceNodeKind>;
  onSelectNode(nodeId: NodeId): void;
  /** Hand over to the step graph with `turn`'s first step at this point of the pane. */
  onOpenSteps(turn: number, screenX: number, screenY: number): void;
}

interface ShownLabel {
  readonly turn: number;
  readonly kind: string;
  readonly text: string;
  /** The texts whole, each as a card or label may show it (cut or not): what a check of the drawing compares with. */
  readonly title: string;
  readonly label: string;
  readonly stats: string;
}

const TITLE_CHARS = 60;

export const OverviewLayer = memo(function OverviewLayer(props: OverviewLayerProps) {
  const active = useStore(props.overviewStore, (s) => s.active);
  return active ? <OverviewCanvas {...props} /> : null;
});

function OverviewCanvas({ store, overviewStore, workspaceKinds, onSelectNode, onOpenSteps }: OverviewLayerProps) {
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [labels, setLabels] = useState<readonly ShownLabel[]>([]);
  const handlers = useRef({ onSelectNode, onOpenSteps });
  handlers.current = { onSelectNode, onOpenSteps };

  // The camera's zoom on the element (tests and the bench read it), apart from drawing: it holds without a canvas context too.
  useEffect(() => {
    const container = host.current;
    if (!container) return;
    const mark = (zoom: number): void => {
      container.dataset.zoom = zoom.toFixed(3);
    };
    mark(overviewStore.getState().camera.zoom);
    return overviewStore.subscribe((state, previous) => {
      if (state.camera.zoom !== previous.camera.zoom) mark(state.camera.zoom);
    });
  }, [overviewStore]);

  useEffect(() => {
    const element = canvas.current;
    const container = host.current;
    const structure = store.getState().structure;
    const ctx = element?.getContext('2d');
    if (!element || !container || !structure || !ctx) return;
    const { overview, grid } = overviewStore.getState().overviewOf(structure);
    const titles: (string | undefined)[] = [];
    const title = (turn: number): string => {
      let text = titles[turn];
      if (text === undefined) {
        const titled = overview.title[turn]!;
        if (titled < 0) {
          // The lines before a first prompt (a hook, a notice) say nothing of the turn: name where it is.
          text = structure.nodes[overview.start[turn]!]!.kind === 'compaction' ? 'Compacted conversation' : 'Session start';
        } else {
          const node = structure.nodes[titled] as { label?: string; kind: string };
          text = (node.label ?? node.kind).replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
        }
        titles[turn] = text;
      }
      return text;
    };
    const headName = (turn: number): string => workspaceKinds.get(structure.nodes[overview.start[turn]!]!.id) ?? 'head';
    const frame: OverviewFrame = createFrame(overview, grid, title, headName, readOverviewColors(container));
    let scheduled = 0;
    let labelTimer: ReturnType<typeof setTimeout> | null = null;
    let labelKey = '';

    const publishLabels = (): void => {
      labelTimer = null;
      const shown: ShownLabel[] = [];
      for (let k = 0; k < frame.labelCount; k++) {
        const { turn, mark } = frame.labels[k]!;
        const label = labelText(frame, turn);
        const stats = statsText(overview, turn);
        shown.push({ turn, kind: markName(mark), text: `${label}, ${stats}`, title: `#${turn + 1} ${title(turn)}`, label, stats });
      }
      setLabels(shown);
    };

    const draw = (): void => {
      scheduled = 0;
      const dpr = globalThis.devicePixelRatio || 1;
      const width = container.clientWidth;
      const height = container.clientHeight;
      if (element.width !== Math.round(width * dpr) || element.height !== Math.round(height * dpr)) {
        element.width = Math.round(width * dpr);
        element.height = Math.round(height * dpr);
      }
      const selected = store.getState().selectedNode;
      frame.camera = overviewStore.getState().camera;
      frame.width = width;
      frame.height = height;
      frame.selectedTurn = selected >= 0 ? overview.turnOf[selected]! : -1;
      drawOverview(ctx, frame, dpr);
      container.dataset.labels = String(frame.labelCount);
      // The accessible list follows the picture once it settles, not at every frame of a pan.
      const key = `${frame.labelCount}:${frame.labels[0]?.turn ?? -1}:${frame.labels[frame.labelCount - 1]?.turn ?? -1}`;
      if (key !== labelKey) {
        labelKey = key;
        if (labelTimer !== null) clearTimeout(labelTimer);
        labelTimer = setTimeout(publishLabels, 120);
      }
    };
    const requestDraw = (): void => {
      if (scheduled === 0) scheduled = requestAnimationFrame(draw);
    };

    const point = (event: { clientX: number; clientY: number }): { x: number; y: number } => {
      const rect = element.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    };
    const openAt = (x: number, y: number): void => {
      const camera = overviewStore.getState().camera;
      const under = turnAtPoint(overview, camera, x, y);
      const turn = under >= 0 ? under : nearestTurn(overview, grid, (x - camera.x) / camera.zoom, (y - camera.y) / camera.zoom);
      if (turn >= 0) handlers.current.onOpenSteps(turn, x, y);
    };

    const onWheel = (event: WheelEvent): void => {
      event.preventDefault();
      const camera = overviewStore.getState().camera;
      const { x, y } = point(event);
      if (event.ctrlKey || event.metaKey) {
        const factor = 2 ** (-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002) * 5);
        const next = zoomAbout(camera, factor, x, y);
        if (next.zoom >= OPEN_STEPS_ZOOM) openAt(x, y);
        else overviewStore.getState().setCamera(next);
        return;
      }
      const dx = event.shiftKey && event.deltaX === 0 ? event.deltaY : event.deltaX;
      const dy = event.shiftKey && event.deltaX === 0 ? 0 : event.deltaY;
      overviewStore.getState().setCamera({ ...camera, x: camera.x - dx, y: camera.y - dy });
    };

    let drag: { x: number; y: number; camera: { x: number; y: number; zoom: number }; moved: boolean } | null = null;
    const onPointerDown = (event: PointerEvent): void => {
      if (event.button !== 0) return;
      element.setPointerCapture?.(event.pointerId);
      drag = { ...point(event), camera: overviewStore.getState().camera, moved: false };
    };
    const onPointerMove = (event: PointerEvent): void => {
      if (!drag) return;
      const { x, y } = point(event);
      if (!drag.moved && Math.hypot(x - drag.x, y - drag.y) < CLICK_SLOP_PX) return;
      drag.moved = true;
      overviewStore.getState().setCamera({ ...drag.camera, x: drag.camera.x + x - drag.x, y: drag.camera.y + y - drag.y });
    };
    const onPointerUp = (event: PointerEvent): void => {
      const started = drag;
      drag = null;
      if (!started || started.moved) return;
      const { x, y } = point(event);
      const turn = turnAtPoint(overview, overviewStore.getState().camera, x, y);
      if (turn >= 0) handlers.current.onSelectNode(structure.nodes[overview.title[turn]! >= 0 ? overview.title[turn]! : overview.start[turn]!]!.id);
    };
    const onDoubleClick = (event: MouseEvent): void => {
      const { x, y } = point(event);
      openAt(x, y);
    };

    element.addEventListener('wheel', onWheel, { passive: false });
    element.addEventListener('pointerdown', onPointerDown);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerup', onPointerUp);
    element.addEventListener('dblclick', onDoubleClick);
    const unsubscribeCamera = overviewStore.subscribe((state, previous) => {
      if (state.camera !== previous.camera) requestDraw();
    });
    const unsubscribeSelection = store.subscribe((state, previous) => {
      if (state.selectedNode !== previous.selectedNode) requestDraw();
    });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(requestDraw);
    observer?.observe(container);
    const scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    const onScheme = (): void => {
      frame.colors = readOverviewColors(container);
      requestDraw();
    };
    scheme?.addEventListener?.('change', onScheme);
    requestDraw();
    return () => {
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('pointerdown', onPointerDown);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerup', onPointerUp);
      element.removeEventListener('dblclick', onDoubleClick);
      unsubscribeCamera();
      unsubscribeSelection();
      observer?.disconnect();
      scheme?.removeEventListener?.('change', onScheme);
      if (scheduled !== 0) cancelAnimationFrame(scheduled);
      if (labelTimer !== null) clearTimeout(labelTimer);
    };
  }, [store, overviewStore, workspaceKinds]);

  return (
    <div className="graph-overview" data-testid="graph-overview" ref={host}>
      <canvas className="graph-overview__canvas" ref={canvas} aria-hidden="true" />
      <ul className="graph-overview__labels" data-testid="overview-labels" aria-label="Turns in view">
        {labels.map((label) => (
          <li key={label.turn} data-kind={label.kind} data-turn={label.turn} data-title={label.title} data-label={label.label} data-stats={label.stats}>
            {label.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
