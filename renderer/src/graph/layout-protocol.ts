/** Messages between the graph view and its layout worker. Typed arrays make the answers cheap to copy. */
import type { FoldId } from '../../../shared/graph/folds';
import { linksOfPacked, unpackGraphNodes, type PackedGraphNodes } from '../../../shared/graph/packed-nodes';
import type { SessionLayout } from '../../../shared/graph/session-layout';
import type { SessionStructure, StructureArrays } from '../../../shared/graph/session-structure';
import type { GraphNode, NodeLinks } from '../../../shared/graph/session-tree';
import type { TurnOverview } from '../../../shared/graph/turn-overview';
import type { WorkspaceNodeInfo } from '../../../shared/operations';

/** The structure without the nodes and id map, which the view already has. */
export type { StructureArrays };

export type LayoutRequest =
  | {
      readonly id: number;
      readonly type: 'open';
      readonly nodes: PackedGraphNodes | readonly GraphNode[];
      readonly expanded: readonly FoldId[];
      /** Which nodes Arbor added (forks and merges draw as branches of their own). */
      readonly workspaceNodes: readonly WorkspaceNodeInfo[];
      /** 1 per node the toolbar's filters hide (folds.ts buildVisibleGraph), or null. */
      readonly hide: Uint8Array | null;
    }
  | { readonly id: number; readonly type: 'layout'; readonly expanded: readonly FoldId[]; readonly hide: Uint8Array | null };

/** The turn overview of the opened session, built off the UI thread (~80 ms at 100k nodes); a message of its own beside LayoutRequest. */
export interface OverviewRequest {
  readonly id: number;
  readonly type: 'overview';
}

/** Runs the worker's code once on a made-up session before a real one arrives (layout-warmup.ts); no answer. */
export interface WarmupRequest {
  readonly type: 'warm';
}

export interface OverviewResponse {
  readonly id: number;
  readonly ok: true;
  readonly overview: TurnOverview;
}

export type LayoutResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly structure: StructureArrays | null;
      readonly layout: SessionLayout;
      /** How long the worker spent on an open's parts, in ms (the bench prints them beside the whole). */
      readonly timing?: { readonly structure: number; readonly layout: number };
    }
  | { readonly id: number; readonly ok: false; readonly message: string };

/**
 * The buffers of a layout answer that can move to the view instead of being copied: the layout's own arrays,
 * less any it shares with the structure the worker keeps for the next layout (a transferred buffer is gone
 * from the sender). Each buffer once (a repeated one fails the post).
 */
export function layoutTransfer(layout: SessionLayout, kept: StructureArrays): ArrayBuffer[] {
  const keptBuffers = new Set<ArrayBufferLike>();
  for (const value of Object.values(kept)) if (ArrayBuffer.isView(value)) keptBuffers.add(value.buffer);
  for (const value of Object.values(kept.display)) if (ArrayBuffer.isView(value)) keptBuffers.add(value.buffer);
  for (const value of Object.values(kept.tree)) if (ArrayBuffer.isView(value)) keptBuffers.add(value.buffer);
  const moved = new Set<ArrayBuffer>();
  const take = (value: unknown): void => {
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer && !keptBuffers.has(value.buffer)) moved.add(value.buffer);
  };
  for (const part of [layout.visible, layout.visible.forest, layout.layout]) for (const value of Object.values(part)) take(value);
  return [...moved];
}

/**
 * The structure for an open's answer, as fresh copies of its arrays the view takes whole (their buffers go in
 * the transfer list): the worker keeps its own for the next layout. Copied in the worker (a few ms of memcpy
 * at 100k nodes) rather than by postMessage, whose structured clone of ~4 MB of arrays cost the UI thread
 * ~10 ms to receive. An array whose buffer holds more than it (a subarray) is copied down to what it shows.
 */
export function structureForView(arrays: StructureArrays): { readonly structure: StructureArrays; readonly transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const copy = <T>(value: T): T => {
    if (!ArrayBuffer.isView(value) || value instanceof DataView) return value;
    const copied = (value as unknown as Int32Array).slice();
    transfer.push(copied.buffer as ArrayBuffer);
    return copied as unknown as T;
  };
  const copyAll = <T extends object>(part: T): T => {
    const out = {} as T;
    for (const key of Object.keys(part) as (keyof T)[]) out[key] = copy(part[key]);
    return out;
  };
  const structure: StructureArrays = { ...copyAll(arrays), tree: copyAll(arrays.tree), display: copyAll(arrays.display) };
  return { structure, transfer };
}

export function structureArrays(structure: SessionStructure): StructureArrays {
  const { nodes: _nodes, indexById: _indexById, ...arrays } = structure;
  return arrays;
}

export { packGraphNodes, unpackGraphNodes, type PackedGraphNodes } from '../../../shared/graph/packed-nodes';

/** The nodes of an open request, whichever form they came in. */
export function requestNodes(nodes: PackedGraphNodes | readonly GraphNode[]): readonly GraphNode[] {
  return isPacked(nodes) ? unpackGraphNodes(nodes) : nodes;
}

/** The nodes of an open request with their links by index when they came packed (buildSessionTree's fast path). */
export function requestGraph(nodes: PackedGraphNodes | readonly GraphNode[]): { readonly nodes: readonly GraphNode[]; readonly links?: NodeLinks } {
  return isPacked(nodes) ? { nodes: unpackGraphNodes(nodes), links: linksOfPacked(nodes) } : { nodes };
}

function isPacked(nodes: PackedGraphNodes | readonly GraphNode[]): nodes is PackedGraphNodes {
  return !Array.isArray(nodes);
}
