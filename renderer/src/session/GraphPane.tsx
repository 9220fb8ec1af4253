import { useCallback, useEffect, useMemo } from 'react';
import type { NodeId, SessionGraph } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { absoluteTime, plural, relativeTime } from '../app/format';
import { DemoOffer } from '../import/DemoOffer';
import { prewarmLayoutWorker } from '../graph/layout-engine';
import { SessionGraphView } from '../graph/SessionGraphView';
import { CompareBar } from '../time-travel/CompareBar';
import { MergeAction } from '../merge/MergeAction';
import { ConversationLayout, ConversationModeSwitch } from '../conversation/ConversationLayout';
import { FormatReportNote } from './FormatReportNote';
import { useNodeStatesAfterFirstView } from '../state/node-states-timing';
import { ExportButton } from '../export/ExportButton';
import { DeleteSessionButton } from '../forget/DeleteSessionButton';
import { SideEffectsButton } from './SideEffectsButton';
import { SessionLinks } from './SessionLinks';
import { SessionCost } from '../statistics/SessionCost';
import { SessionFolder } from './SessionFolder';
import { SessionResume } from './SessionResume';
import { SourceDeletedNote } from './SourceDeletedNote';

/** The centre: the open session's tree, or what to do when there is nothing to open yet. */
export function GraphPane() {
  const graph = useAppState((s) => s.graph);
  const graphStatus = useAppState((s) => s.graphStatus);
  const graphPartial = useAppState((s) => s.graphPartial);
  const selectedSessionId = useAppState((s) => s.selectedSessionId);
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const selectNode = useAppState((s) => s.selectNode);
  const hasSessions = useAppState((s) => s.sessions.length > 0);
  const sessionsStatus = useAppState((s) => s.sessionsStatus);
  const importPhase = useAppState((s) => s.importPhase);
  const onSelectNode = useCallback((nodeId: NodeId) => void selectNode(nodeId), [selectNode]);
  const nodeStates = useAppState((s) => (s.nodeStatesSession === s.selectedSessionId ? s.nodeStates : null));
  const compareNodeId = useAppState((s) => s.compareNodeId);
  const setCompareNode = useAppState((s) => s.setCompareNode);
  const loadNodeStates = useAppState((s) => s.loadNodeStates);
  const onCompareNode = useCallback(
    (nodeId: NodeId) => setCompareNode(compareNodeId === nodeId ? null : nodeId),
    [compareNodeId, setCompareNode],
  );
  // Until a graph is on screen, a layout worker starts up in the background (prewarmLayoutWorker): its
  // script is fetched and compiled while the session list and the session's nodes are still on their way,
  // not after (a cold `arbor serve` answered the worker's script only once the graph was sent).
  const showing = graph !== null && graph.session.id === selectedSessionId;
  useEffect(() => {
    if (!showing) prewarmLayoutWorker();
  }, [showing]);
  // State markers come after the graph is on screen (a reconstruction can take a while); each new
  // graph (a refresh after a fork, say) asks again. Not for a big session's start: asked then, the query of
  // every node's state held the host while the rest of the graph was still to be sent.
  const shownGraph = showing && !graphPartial ? graph : null;
  // The header's folder is the one at the selection, else at the latest step: found once per graph.
  const latest = useMemo(() => (graph === null ? null : latestStep(graph)), [graph]);
  useNodeStatesAfterFirstView(shownGraph, loadNodeStates);

  let body: React.ReactNode;
  if (graph && graph.session.id === selectedSessionId) {
    body = (
      <SessionGraphView
        graph={graph}
        partial={graphPartial}
        selectedNodeId={selectedNodeId}
        onSelectNode={onSelectNode}
        nodeStates={nodeStates}
        compareNodeId={compareNodeId}
        onCompareNode={onCompareNode}
      />
    );
  } else if (selectedSessionId !== null && graphStatus === 'error') {
    body = <div className="pane-empty is-error">This session could not be opened.</div>;
  } else if (selectedSessionId !== null) {
    body = <div className="pane-empty">Opening session…</div>;
  } else if (!hasSessions && (importPhase === 'running' || importPhase === 'idle' || sessionsStatus === 'loading')) {
    body = <div className="pane-empty">Looking for your agent sessions…</div>;
  } else if (!hasSessions) {
    body = <DemoOffer />;
  } else {
    body = <div className="pane-empty">Choose a session on the left.</div>;
  }

  return (
    <main className="graph-pane" aria-label="Session">
      {graph && graph.session.id === selectedSessionId ? (
        <div className="graph-pane__head">
          <div className="graph-pane__top">
            <h1 className="graph-pane__title" title={graph.session.title}>
              {graph.session.title}
            </h1>
            <div className="graph-pane__actions">
              <ExportButton sessionId={graph.session.id} />
              <DeleteSessionButton sessionId={graph.session.id} />
              <ConversationModeSwitch />
            </div>
          </div>
          <div className="graph-pane__meta">
            <SessionFolder project={graph.session.project} nodeId={selectedNodeId ?? latest} />
            <span title={absoluteTime(graph.session.startedAt)}>started {relativeTime(graph.session.startedAt)}</span>
            <span>{plural(graph.session.nodeCount, 'node')}</span>
            <span>{plural(graph.session.branchCount, 'branch point')}</span>
            {graph.session.fileCount > 1 ? <span>{plural(graph.session.fileCount, 'file')}</span> : null}
            <SessionCost sessionId={graph.session.id} revision={graph.session.nodeCount} />
            <FormatReportNote sessionId={graph.session.id} revision={graph.session.nodeCount} />
            <SessionLinks links={graph.session.links} />
            <SourceDeletedNote sessionId={graph.session.id} />
            <SideEffectsButton sessionId={graph.session.id} />
          </div>
          <SessionResume session={graph.session} />
        </div>
      ) : null}
      {showing ? (
        <CompareBar>
          <MergeAction />
        </CompareBar>
      ) : null}
      <div className="graph-pane__body">
        <ConversationLayout graph={showing ? graph : null}>{body}</ConversationLayout>
      </div>
    </main>
  );
}

/** The main thread's last step in transcript order (Arbor's own nodes, listed last, and subagent lines are not steps of it). */
function latestStep({ nodes, workspaceNodes = [] }: SessionGraph): NodeId | null {
  const added = new Set(workspaceNodes.map((info) => info.nodeId));
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    if (!node.sidechain && node.kind !== 'progress' && !added.has(node.id)) return node.id;
  }
  return null;
}
