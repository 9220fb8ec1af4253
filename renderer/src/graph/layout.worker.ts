/// <reference lib="webworker" />
/** The layout worker: builds the session's structure once, then lays out each fold state off the UI thread. */
import { layoutColumns, openColumns, type OpenedColumns } from './layout-compute';
import { layoutTransfer, structureForView, type LayoutRequest, type LayoutResponse, type OverviewRequest, type OverviewResponse, type WarmupRequest } from './layout-protocol';
import { buildTurnOverview } from '../../../shared/graph/turn-overview';
import { warmLayoutCode } from './layout-warmup';

let opened: OpenedColumns | null = null;

self.onmessage = (event: MessageEvent<LayoutRequest | OverviewRequest | WarmupRequest>) => {
  const request = event.data;
  if (request.type === 'warm') {
    try {
      warmLayoutCode();
    } catch {
      // A warm-up that fails costs nothing but the warm-up: the real open reports its own errors.
    }
    return;
  }
  if (request.type === 'overview') {
    (self as unknown as { postMessage(message: OverviewResponse | LayoutResponse): void }).postMessage(overviewAnswer(request.id));
    return;
  }
  let response: LayoutResponse;
  let structureTransfer: ArrayBuffer[] = [];
  try {
    if (request.type === 'open') {
      const { layout, timing, ...session } = openColumns(request.nodes, request.expanded, request.workspaceNodes, request.hide);
      opened = session;
      const forView = structureForView(session.arrays);
      structureTransfer = forView.transfer;
      response = { id: request.id, ok: true, structure: forView.structure, layout, timing };
    } else {
      if (opened === null) throw new Error('layout requested before the session was opened');
      response = { id: request.id, ok: true, structure: null, layout: layoutColumns(opened, request.expanded, request.hide) };
    }
  } catch (error) {
    response = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  // The layout moves to the view (~2 MB of arrays at 100k nodes, copied before), and so does the structure's
  // copy (the worker keeps its own). A buffer listed twice fails the post: the copies share none with the layout.
  const transfer = response.ok && opened !== null ? [...layoutTransfer(response.layout, opened.arrays), ...structureTransfer] : [];
  (self as unknown as { postMessage(message: LayoutResponse, transfer: Transferable[]): void }).postMessage(response, transfer);
};

function overviewAnswer(id: number): OverviewResponse | LayoutResponse {
  try {
    if (opened === null) throw new Error('overview requested before the session was opened');
    return { id, ok: true, overview: buildTurnOverview(opened.arrays) };
  } catch (error) {
    return { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
