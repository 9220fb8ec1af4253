/**
 * The conversation view's own state (one store per open session): node details fetched so far, and what
 * the reader opened or folded. Details arrive in batches (`nodes.details`) for the rows near the viewport
 * only, so a 50k-node branch never asks for more than a few screens at a time. Each ask goes as its own
 * call, in the order asked, so the rows on screen (asked first) are not held back by the prefetch around them.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { NODE_DETAILS_MAX } from '../../../shared/contract';
import type { NodeDetail, NodeId } from '../../../shared/model';
import type { ArborClient } from '../client/arbor-client';

export interface ConversationState {
  readonly details: ReadonlyMap<NodeId, NodeDetail>;
  /** Ids answered as missing (deleted meanwhile): not asked again. */
  readonly missing: ReadonlySet<NodeId>;
  readonly failed: boolean;
  /** Rows the reader opened (thinking, subagent runs, compaction summaries, a call's full input). */
  readonly open: ReadonlySet<NodeId>;
  /**
   * Asks for the details of these nodes unless known or on their way. Sent at the end of the tick, one call
   * per ask (split at NODE_DETAILS_MAX), in the order asked.
   */
  request(nodeIds: readonly NodeId[]): void;
  /** A node's details already fetched elsewhere (the inspector's `nodes.get`), so its row need not wait. */
  seed(detail: NodeDetail): void;
  setOpen(nodeId: NodeId, open: boolean): void;
  toggle(nodeId: NodeId): void;
  dispose(): void;
}

export type ConversationStore = StoreApi<ConversationState>;

export function createConversationStore(client: Pick<ArborClient, 'call'>, known: readonly NodeDetail[] = []): ConversationStore {
  const inFlight = new Set<NodeId>();
  let queue: NodeId[][] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const controller = new AbortController();

  return createStore<ConversationState>()((set, get) => {
    const flush = (): void => {
      timer = null;
      const asks = queue;
      queue = [];
      for (const ask of asks) send(ask);
    };
    const send = (batch: readonly NodeId[]): void => {
      for (let at = 0; at < batch.length; at += NODE_DETAILS_MAX) {
        const ids = batch.slice(at, at + NODE_DETAILS_MAX);
        client
          .call('nodes.details', { nodeIds: ids }, { signal: controller.signal })
          .then(({ details, missing }) => {
            for (const id of ids) inFlight.delete(id);
            if (controller.signal.aborted) return;
            const next = new Map(get().details);
            for (const detail of details) next.set(detail.node.id, detail);
            const gone = missing.length > 0 ? new Set([...get().missing, ...missing]) : get().missing;
            set({ details: next, missing: gone });
          })
          .catch(() => {
            for (const id of ids) inFlight.delete(id);
            if (!controller.signal.aborted) set({ failed: true });
          });
      }
    };
    return {
      details: new Map(known.map((detail) => [detail.node.id, detail])),
      missing: new Set(),
      failed: false,
      open: new Set(),
      request(nodeIds) {
        const { details, missing } = get();
        const ask: NodeId[] = [];
        for (const id of nodeIds) {
          if (details.has(id) || missing.has(id) || inFlight.has(id)) continue;
          inFlight.add(id);
          ask.push(id);
        }
        if (ask.length === 0) return;
        queue.push(ask);
        if (timer === null) timer = setTimeout(flush, 0);
      },
      seed(detail) {
        if (get().details.has(detail.node.id)) return;
        set({ details: new Map(get().details).set(detail.node.id, detail) });
      },
      setOpen(nodeId, open) {
        if (get().open.has(nodeId) === open) return;
        const next = new Set(get().open);
        if (open) next.add(nodeId);
        else next.delete(nodeId);
        set({ open: next });
      },
      toggle(nodeId) {
        get().setOpen(nodeId, !get().open.has(nodeId));
      },
      dispose() {
        controller.abort();
        if (timer !== null) clearTimeout(timer);
      },
    };
  });
}
