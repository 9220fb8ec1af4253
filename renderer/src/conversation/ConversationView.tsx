/**
 * The selected branch as a readable transcript: the path from the root through the selected node to the
 * end of its branch, virtualized (only rows near the viewport are mounted, their details fetched in
 * batches), opened at the selected node without rendering the rows before it. Selection is the app's, so
 * the graph follows and the conversation follows the graph.
 */
import { measureElement as measureRowElement, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { SessionGraph } from '../../../shared/model';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { AgentRuns } from './AgentRunBlock';
import { conversationStructureOf, siblingBranch, type ConversationRow, type ConversationStructure } from './branch-path';
import { createBranchViews, type BranchView } from './branch-views';
import { ConversationRow as Row } from './ConversationRow';
import { conversationKeyAction } from './conversation-keys';
import { createConversationStore, type ConversationStore } from './conversation-store';
import { prefetchWindow } from './prefetch-window';
import { createRowEstimates, estimatedStart } from './row-estimates';
import { anchorSelectedRow } from './selected-row-anchor';
import { useSessionTree } from '../state/session-trees';
import './conversation.css';

/** Rows fetched beyond the mounted ones (at least; in blocks of this many), so a slow scroll finds them ready. */
const PREFETCH_ROWS = 30;
/** Rows around the selected one asked for at the jump, before the virtualizer has mounted any. */
const JUMP_ROWS_BEFORE = 4;
const JUMP_ROWS_AFTER = 16;

/** `parked`: kept mounted out of sight while the graph is shown alone (ConversationLayout); its keys are off. */
export function ConversationView({ graph, parked = false }: { graph: SessionGraph; parked?: boolean }) {
  // The session tree the graph's layout worker built (state/session-trees.ts), not one of its own.
  const tree = useSessionTree(graph);
  const structure = useMemo(() => (tree === null ? null : conversationStructureOf(tree)), [tree]);
  if (structure === null) {
    return (
      <section className="conversation" aria-label="Conversation" aria-busy="true" hidden={parked}>
        <div className="pane-empty">Reading {graph.nodes.length.toLocaleString()} steps…</div>
      </section>
    );
  }
  return <ConversationBody sessionId={graph.session.id} structure={structure} parked={parked} />;
}

function ConversationBody({ sessionId, structure, parked }: { sessionId: string; structure: ConversationStructure; parked: boolean }) {
  const client = useArborClient();
  const appStore = useAppStoreApi();
  // One cache of details per open session; a refresh of the same session keeps it. The inspector's details of
  // the selected node go in first, so the row opened at shows its content in its first frame.
  const store = useMemo(() => {
    const known = appStore.getState().nodeDetail;
    return createConversationStore(client, known === null ? [] : [known]);
  }, [client, sessionId]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => () => store.getState().dispose(), [store]);
  const inspected = useAppState((s) => s.nodeDetail);
  useEffect(() => {
    if (inspected !== null && inspected.node.sessionId === sessionId) store.getState().seed(inspected);
  }, [inspected, sessionId, store]);
  const estimates = useMemo(() => createRowEstimates(), [sessionId]); // eslint-disable-line react-hooks/exhaustive-deps
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const selectNode = useAppState((s) => s.selectNode);
  const selected = selectedNodeId === null ? -1 : (structure.session.indexById.get(selectedNodeId) ?? -1);

  // Moving along the branch keeps it; another branch is read through the new selection (branch-views.ts).
  const branchViews = useMemo(() => createBranchViews(structure, estimates), [structure, estimates]);
  const shown = useRef<BranchView | null>(null);
  const view = useMemo(() => branchViews.viewFor(selected, shown.current), [branchViews, selected]);
  useEffect(() => {
    shown.current = view;
  }, [view]);
  const { rows, rowOfNode } = view.rows;
  const { keys, sorts } = view;
  const selectedRow = selected < 0 ? -1 : rowOfNode[selected]! >= 0 ? rowOfNode[selected]! : view.openAgent >= 0 ? rowOfNode[structure.display.parent[view.openAgent]!]! : -1;

  // The selected node's thinking (or the subagent run it is in) opens when it is selected.
  useEffect(() => {
    if (selectedNodeId === null || selected < 0) return;
    const kind = structure.nodes[selected]!.kind;
    if (kind === 'thinking') store.getState().setOpen(selectedNodeId, true);
    if (view.openAgent >= 0) store.getState().setOpen(structure.nodes[view.openAgent]!.id, true);
  }, [selectedNodeId, selected, structure, store, view]);

  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable across renders: the virtualizer re-places every row of the branch (50k) whenever getItemKey changes.
  const getItemKey = useCallback((index: number) => keys[index]!, [keys]);
  const estimateSize = useCallback((index: number) => estimates.estimate(sorts[index]!), [estimates, sorts]);
  const measureElement = useCallback(
    (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>) => {
      const height = measureRowElement(element, entry, instance);
      // Only a row showing its content teaches the guess; its one-line placeholder says nothing of its height.
      const index = instance.indexFromElement(element);
      if (index < sorts.length && element.firstElementChild?.getAttribute('data-loaded') === 'true') estimates.observe(sorts[index]!, keys[index]!, height);
      return height;
    },
    [estimates, sorts, keys],
  );
  // The first frame already renders the rows around the selected one (at their guessed place), not the
  // branch's first rows, which would be mounted, measured and fetched for nothing.
  const initialOffset = useCallback(() => (selectedRow > 0 ? estimatedStart(selectedRow, estimateSize) : 0), []); // eslint-disable-line react-hooks/exhaustive-deps
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    measureElement,
    initialOffset,
    overscan: 6,
    getItemKey,
  });

  // Bring the selected row into view: centred when the branch changed (or on open), minimally otherwise; then
  // keep it there while the rows around it settle (selected-row-anchor.ts). Its neighbours' details are asked
  // for now, ahead of the prefetch, so its content is the first to arrive.
  const scrolledView = useRef<BranchView | null>(null);
  useLayoutEffect(() => {
    if (selectedRow < 0) return;
    const align = scrolledView.current === view ? 'auto' : 'center';
    scrolledView.current = view;
    store.getState().request(keys.slice(Math.max(0, selectedRow - JUMP_ROWS_BEFORE), selectedRow + JUMP_ROWS_AFTER + 1));
    virtualizer.scrollToIndex(selectedRow, { align });
    return anchorSelectedRow({ scroller: scrollRef.current, virtualizer, row: selectedRow, jump: () => virtualizer.scrollToIndex(selectedRow, { align }) });
  }, [selectedRow, view, keys, store, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex < 0) return;
    const { from, to } = prefetchWindow(firstIndex, lastIndex, rows.length, PREFETCH_ROWS);
    // The mounted rows first, then the window around them: the rows on screen are not held back by the prefetch.
    store.getState().request(keys.slice(firstIndex, lastIndex + 1));
    store.getState().request(keys.slice(from, to + 1));
  }, [firstIndex, lastIndex, keys, rows.length, store]);

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

  useConversationKeys(structure, view, selectedRow, store, onSelect, parked);

  const agentRuns = useMemo(() => {
    const blocks = new WeakMap<ConversationRow, React.ReactElement>();
    return (row: ConversationRow): React.ReactElement | null => {
      if (row.agentRuns.length === 0) return null;
      let block = blocks.get(row);
      if (block === undefined) blocks.set(row, (block = <AgentRuns structure={structure} roots={row.agentRuns} store={store} onSelect={onSelect} />));
      return block;
    };
  }, [structure, store, onSelect]);

  const failed = useStore(store, (s) => s.failed);
  // Parked at the width it was read at, so no row is re-measured (and no height cache dropped) while out of sight.
  const sectionRef = useRef<HTMLElement>(null);
  const parkedWidth = useRef(0);
  if (!parked && sectionRef.current !== null) parkedWidth.current = sectionRef.current.clientWidth;
  return (
    <section
      ref={sectionRef}
      className="conversation"
      aria-label="Conversation"
      data-testid="conversation"
      data-parked={parked ? 'true' : undefined}
      aria-hidden={parked ? true : undefined}
      style={parked && parkedWidth.current > 0 ? { width: parkedWidth.current } : undefined}
    >
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
                  {/* One element per row, reused across renders (null without subagents), so the memoized row skips re-rendering as the list scrolls. */}
                  {agentRuns(row)}
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
  parked: boolean,
) {
  const appStore = useAppStoreApi();
  const latest = useRef({ structure, view, selectedRow, parked });
  useEffect(() => {
    latest.current = { structure, view, selectedRow, parked };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const state = appStore.getState();
      if (state.timeTravelDialog !== null || latest.current.parked) return;
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

