/// <reference lib="webworker" />
/** The layout worker: builds the session's structure once, then lays out each fold state off the UI thread. */
import { computeLayout, openStructure } from './layout-compute';
import { layoutTransfer, requestGraph, type LayoutRequest, type LayoutResponse, type OverviewRequest, type OverviewResponse } from './layout-protocol';
import { buildTurnOverview } from '../../../shared/graph/turn-overview';
import type { SessionStructure } from '../../../shared/graph/session-structure';

let structure: SessionStructure | null = null;

self.onmessage = (event: MessageEvent<LayoutRequest | OverviewRequest>) => {
  const request = event.data;
  if (request.type === 'overview') {
    (self as unknown as { postMessage(message: OverviewResponse | LayoutResponse): void }).postMessage(overviewAnswer(request.id));
    return;
  }
  let response: LayoutResponse;
  try {
    if (request.type === 'open') {
      const { nodes, links } = requestGraph(request.nodes);
      const opened = openStructure(nodes, request.expanded, request.workspaceNodes, request.hide, links);
      structure = opened.structure;
      response = { id: request.id, ok: true, structure: opened.arrays, layout: opened.layout };
    } else {
      if (structure === null) throw new Error('layout requested before the session was opened');
      response = { id: request.id, ok: true, structure: null, layout: computeLayout(structure, request.expanded, request.hide) };
    }
  } catch (error) {
    response = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  // The layout moves to the view (~2 MB of arrays at 100k nodes, copied before); the structure is copied, as the worker keeps it.
  const transfer = response.ok && structure !== null ? layoutTransfer(response.layout, structure) : [];
  (self as unknown as { postMessage(message: LayoutResponse, transfer: Transferable[]): void }).postMessage(response, transfer);
};

function overviewAnswer(id: number): OverviewResponse | LayoutResponse {
  try {
    if (structure === null) throw new Error('overview requested before the session was opened');
    return { id, ok: true, overview: buildTurnOverview(structure) };
  } catch (error) {
    return { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
