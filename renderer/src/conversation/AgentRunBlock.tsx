/**
 * A subagent run, folded under the call that spawned it: one click opens its own transcript, nested.
 * Runs are short next to a session, so the open block is not virtualized; a very long one shows its
 * first steps and says how many more there are.
 */
import { memo, useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { useAppState } from '../app/app-context';
import { plural } from '../app/format';
import { agentRunPath, conversationRows, type ConversationStructure } from './branch-path';
import { ConversationRow } from './ConversationRow';
import type { ConversationStore } from './conversation-store';

const AGENT_ROWS_SHOWN = 300;

/**
 * The runs under one row's calls. Memoized on props that stay the same while the list scrolls, so the row
 * holding it (also memoized) is not re-rendered each frame; the selection is read inside, by each run.
 */
export const AgentRuns = memo(function AgentRuns({
  structure,
  roots,
  store,
  onSelect,
}: {
  structure: ConversationStructure;
  roots: readonly number[];
  store: ConversationStore;
  onSelect: (nodeId: string) => void;
}) {
  return roots.map((root) => <AgentRunBlock key={root} structure={structure} root={root} store={store} onSelect={onSelect} />);
});

export function AgentRunBlock({
  structure,
  root,
  store,
  onSelect,
}: {
  structure: ConversationStructure;
  root: number;
  store: ConversationStore;
  onSelect: (nodeId: string) => void;
}) {
  const rootId = structure.nodes[root]!.id;
  const open = useStore(store, (s) => s.open.has(rootId));
  const toggle = useStore(store, (s) => s.toggle);
  const rows = useMemo(() => conversationRows(structure, agentRunPath(structure, root)).rows, [structure, root]);
  const steps = rows.length;
  const shown = useMemo(() => (open ? rows.slice(0, AGENT_ROWS_SHOWN) : []), [open, rows]);
  useEffect(() => {
    if (shown.length > 0) store.getState().request(shown.map((row) => structure.nodes[row.node]!.id));
  }, [shown, store, structure]);
  // Folded, the run shows no step, so the selection moving elsewhere does not re-render it.
  const selectedNodeId = useAppState((s) => (open ? s.selectedNodeId : null));
  const first = structure.nodes[root]!;
  return (
    <details className="conv-agent" open={open} data-testid="conversation-agent">
      <summary
        onClick={(event) => {
          event.preventDefault();
          toggle(rootId);
        }}
      >
        <span className="conv-agent__title">Subagent</span>
        <span className="conv-agent__label" title={first.label}>
          {first.label}
        </span>
        <span className="conv-agent__count">{plural(steps, 'step')}</span>
      </summary>
      {open ? (
        <div className="conv-agent__rows">
          {shown.map((row) => {
            const summary = structure.nodes[row.node]!;
            return <ConversationRow key={summary.id} summary={summary} kind={row.kind} selected={summary.id === selectedNodeId} ordinal={null} store={store} onSelect={onSelect} />;
          })}
          {rows.length > shown.length ? <div className="conv-annotation">{plural(rows.length - shown.length, 'more step')} in this run; select one in the graph to read it.</div> : null}
        </div>
      ) : null}
    </details>
  );
}
