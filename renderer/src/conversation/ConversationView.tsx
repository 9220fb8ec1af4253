/**
 * The selected branch as a readable transcript: the path from the root through the selected node to the
 * end of its branch, virtualized (only rows near the viewport are mounted, their details fetched in
 * batches), opened at the selected node without rendering the rows before it. Selection is the app's, so
 * the graph follows and the conversation follows the graph.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { SessionGraph } from '../../../shared/model';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { AgentRunBlock } from './AgentRunBlock';
import { branchPath, buildConversationStructure, conversationRows, siblingBranch, type ConversationRow, type ConversationRows, type ConversationStructure } from './branch-path';
import { ConversationRow as Row } from './ConversationRow';
import { conversationKeyAction } from './conversation-keys';
import { createConversationStore, type ConversationStore } from './conversation-store';
import './conversation.css';

/**
 * How long a jump keeps the selected row in view while the rows around it are measured and their details
 * arrive (each can grow a row by hundreds of pixels). Ended sooner by the user's own scrolling.
 */
const SETTLE_MS = 10_000;

/** Rows fetched beyond the mounted ones, so a slow scroll finds them ready. */
const PREFETCH_ROWS = 30;

interface BranchView {
  readonly structure: ConversationStructure;
  readonly rows: ConversationRows;
  readonly openAgent: number;
}

function estimateRow(structure: ConversationStructure, row: ConversationRow | undefined): number {
  if (!row) return 60;
  if (row.kind === 'annotation') return 28;
  if (row.kind === 'compaction') return 72;
  const node = structure.nodes[row.node]!;
  switch (node.kind) {
    case 'user':
      return 84;
    case 'thinking':
      return 44;
    case 'tool_call':
      return 120;
    default:
      return 72;
  }
}

/** Whether the row's top is inside the scroller, with at least a line of it showing. */
function selectedRowInView(scroller: HTMLElement | null, index: number): boolean {
  const element = scroller?.querySelector(`[data-index="${index}"]`);
  if (!scroller || !element) return false;
  const box = element.getBoundingClientRect();
  const port = scroller.getBoundingClientRect();
  return box.top >= port.top - 1 && box.top < port.bottom - Math.min(24, box.height);
}

export function ConversationView({ graph }: { graph: SessionGraph }) {
  const client = useArborClient();
  const sessionId = graph.session.id;
  // One cache of details per open session; a refresh of the same session keeps it.
  const store = useMemo(() => createConversationStore(client), [client, sessionId]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => () => store.getState().dispose(), [store]);
  const structure = useMemo(() => buildConversationStructure(graph.nodes, graph.workspaceNodes), [graph]);
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const selectNode = useAppState((s) => s.selectNode);
  const selected = selectedNodeId === null ? -1 : (structure.session.indexById.get(selectedNodeId) ?? -1);

  // Moving along the branch keeps it (above a branch point too, as in a chat app); anything else reads
  // the branch through the new selection.
  const shown = useRef<BranchView | null>(null);
  const view = useMemo((): BranchView => {
    const last = shown.current;
    if (last && last.structure === structure && (selected < 0 || last.rows.rowOfNode[selected]! >= 0)) return last;
    const start = selected >= 0 ? selected : (structure.session.tree.roots[0] ?? -1);
    const { path, openAgent } = branchPath(structure, start);
    return { structure, rows: conversationRows(structure, path), openAgent };
  }, [structure, selected]);
  useEffect(() => {
    shown.current = view;
  }, [view]);
  const { rows, rowOfNode } = view.rows;
  const selectedRow = selected < 0 ? -1 : rowOfNode[selected]! >= 0 ? rowOfNode[selected]! : view.openAgent >= 0 ? rowOfNode[structure.display.parent[view.openAgent]!]! : -1;

  // The selected node's thinking (or the subagent run it is in) opens when it is selected.
  useEffect(() => {
    if (selectedNodeId === null || selected < 0) return;
    const kind = structure.nodes[selected]!.kind;
    if (kind === 'thinking') store.getState().setOpen(selectedNodeId, true);
    if (view.openAgent >= 0) store.getState().setOpen(structure.nodes[view.openAgent]!.id, true);
  }, [selectedNodeId, selected, structure, store, view]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRow(structure, rows[index]),
    overscan: 6,
    getItemKey: (index) => structure.nodes[rows[index]!.node]!.id,
  });

  // Bring the selected row into view: centred when the branch changed (or on open), minimally otherwise.
  const scrolledView = useRef<BranchView | null>(null);
  useLayoutEffect(() => {
    if (selectedRow < 0) return;
    const align = scrolledView.current === view ? 'auto' : 'center';
    scrolledView.current = view;
    virtualizer.scrollToIndex(selectedRow, { align });
    // Rows measured on the way in, and details arriving in batches, change the offsets the jump was computed
    // from, and rows above the selected one that grow after it came into view push it out again. So the
    // selected row stays anchored: whenever it is out of view, jump again, until the user scrolls or
    // SETTLE_MS passes. Stopping at the first frame it was in view left it pushed off screen on a busy
    // machine, where the details land seconds later (a flaky e2e in CI, 4 runs in 8 under load).
    const started = performance.now();
    let stopped = false;
    const stop = (): void => {
      stopped = true;
    };
    const scrollerAtStart = scrollRef.current;
    const userScrolls = ['wheel', 'pointerdown', 'touchstart', 'keydown'] as const;
    for (const type of userScrolls) scrollerAtStart?.addEventListener(type, stop, { passive: true });
    let frame = requestAnimationFrame(function settle() {
      if (stopped || performance.now() - started > SETTLE_MS) return;
      if (!selectedRowInView(scrollRef.current, selectedRow)) virtualizer.scrollToIndex(selectedRow, { align });
      frame = requestAnimationFrame(settle);
    });
    return () => {
      cancelAnimationFrame(frame);
      for (const type of userScrolls) scrollerAtStart?.removeEventListener(type, stop);
    };
  }, [selectedRow, view, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex < 0) return;
    const from = Math.max(0, firstIndex - PREFETCH_ROWS);
    const to = Math.min(rows.length - 1, lastIndex + PREFETCH_ROWS);
    const ids: string[] = [];
    for (let r = from; r <= to; r++) ids.push(structure.nodes[rows[r]!.node]!.id);
    store.getState().request(ids);
  }, [firstIndex, lastIndex, rows, structure, store]);

  const onSelect = useCallback((nodeId: string) => void selectNode(nodeId), [selectNode]);
  const onSwitchBranch = useCallback(
    (nodeId: string, direction: 1 | -1) => {
      const index = structure.session.indexById.get(nodeId);
      if (index === undefined) return;
      const target = siblingBranch(structure, index, direction);
      if (target >= 0) void selectNode(structure.nodes[target]!.id);
    },
    [structure, selectNode],
  );

  useConversationKeys(structure, view, selectedRow, store, onSelect);

  const failed = useStore(store, (s) => s.failed);
  return (
    <section className="conversation" aria-label="Conversation" data-testid="conversation">
      {failed ? <div className="conv-notice is-error">Some steps could not be loaded.</div> : null}
      <div className="conversation__scroll" ref={scrollRef} tabIndex={0} aria-label="Conversation steps">
        <div className="conversation__rows" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            const summary = structure.nodes[row.node]!;
            return (
              <div key={item.key} className="conversation__item" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                <Row
                  summary={summary}
                  kind={row.kind}
                  selected={item.index === selectedRow}
                  ordinal={row.ordinal}
                  store={store}
                  onSelect={onSelect}
                  onSwitchBranch={onSwitchBranch}
                >
                  {/* null, not [], for a row without subagents, so the memoized row skips re-rendering as the list scrolls. */}
                  {row.agentRuns.length === 0
                    ? null
                    : row.agentRuns.map((root) => (
                        <AgentRunBlock key={root} structure={structure} root={root} store={store} selectedNodeId={selectedNodeId} onSelect={onSelect} />
                      ))}
                </Row>
              </div>
            );
          })}
        </div>
        {rows.length === 0 ? <div className="pane-empty">Nothing to read on this branch.</div> : null}
      </div>
    </section>
  );
}

/** j/k, n/p, [ ], Enter: when focus is not in a text field and no dialog is open. */
function useConversationKeys(
  structure: ConversationStructure,
  view: BranchView,
  selectedRow: number,
  store: ConversationStore,
  onSelect: (nodeId: string) => void,
) {
  const appStore = useAppStoreApi();
  const latest = useRef({ structure, view, selectedRow });
  useEffect(() => {
    latest.current = { structure, view, selectedRow };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const state = appStore.getState();
      if (state.timeTravelDialog !== null) return;
      const { structure: s, view: v, selectedRow: row } = latest.current;
      const action = conversationKeyAction(s, v.rows.rows, row, event.key, event.target);
      if (action === null) return;
      event.preventDefault();
      if (action.kind === 'select') onSelect(s.nodes[action.node]!.id);
      else store.getState().toggle(action.nodeId);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [appStore, store, onSelect]);
}

