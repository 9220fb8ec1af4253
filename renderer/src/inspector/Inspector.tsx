import { useState } from 'react';
import type { NodeDetail, NodeId, NodeSummary } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { absoluteTime, KIND_LABELS } from '../app/format';
import { NodeFilesView } from '../files/NodeFilesView';
import { NodeActions } from '../time-travel/NodeActions';
import { ContentBlockView } from './ContentBlockView';
import { InspectorTabs } from './InspectorTabs';
import { LongText, prettyJson } from './LongText';
import { NodeMeta } from './NodeMeta';
import { ToolCallView } from './ToolCallView';

const WORKSPACE_KIND_LABELS = { snapshot: 'Snapshot', 'hook-snapshot': 'Hook snapshot', fork: 'Fork', merge: 'Merge' } as const;

/** The right pane: everything recorded about the selected node. */
export function Inspector() {
  const detail = useAppState((s) => s.nodeDetail);
  const status = useAppState((s) => s.nodeStatus);
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const sessionOpen = useAppState((s) => s.selectedSessionId !== null);
  let body: React.ReactNode;
  if (selectedNodeId === null && !sessionOpen) body = <div className="pane-empty">Open a session to inspect its prompts, answers and tool calls here.</div>;
  else if (selectedNodeId === null) body = <div className="pane-empty">Select a node in the graph to inspect it.</div>;
  else if (status === 'error') body = <div className="pane-empty is-error">This node could not be loaded.</div>;
  else if (!detail || detail.node.id !== selectedNodeId) body = <NodePreview nodeId={selectedNodeId} />;
  else body = <NodeInspector key={detail.node.id} detail={detail} />;
  return (
    <aside className="inspector" data-testid="inspector" aria-label="Node inspector">
      {body}
    </aside>
  );
}

/**
 * The graph's own summary of a node (kind, label, time): a scan, not an id map of every node, which at 100k
 * nodes was ~40 ms in the render that opens a session, before the graph could post its layout (the first
 * prompt it selects is near the start; a click deep in a 50k graph scans in well under a millisecond).
 */
function summaryOf(nodes: readonly NodeSummary[], nodeId: NodeId): NodeSummary | null {
  for (let i = 0; i < nodes.length; i++) if (nodes[i]!.id === nodeId) return nodes[i]!;
  return null;
}

/**
 * While the node's record is on its way (nodes.get): what the graph already knows about it, at once, so
 * a click answers in the next frame instead of after a round trip (52–89 ms at 50k nodes under load).
 */
function NodePreview({ nodeId }: { nodeId: NodeId }) {
  const nodes = useAppState((s) => s.graph?.nodes ?? null);
  const node = nodes ? summaryOf(nodes, nodeId) : null;
  if (!node) return <div className="pane-empty">Loading…</div>;
  return (
    <div className={`node-inspector kind-${node.kind}`} data-testid="inspector-preview" aria-busy="true">
      <header className="node-inspector__head">
        <span className={`kind-badge kind-badge--${node.kind}`} data-kind={node.kind}>
          {KIND_LABELS[node.kind]}
        </span>
        <span className="node-inspector__label" title={node.label}>
          {node.label}
        </span>
      </header>
      {/* The rows NodeMeta starts and ends with, so nothing jumps when the record lands. */}
      <dl className="node-meta">
        {node.timestamp ? (
          <div className="node-meta__row">
            <dt>Time</dt>
            <dd>{absoluteTime(node.timestamp)}</dd>
          </div>
        ) : null}
        <div className="node-meta__row">
          <dt>Node id</dt>
          <dd>
            <code className="break">{node.sourceId}</code>
          </dd>
        </div>
      </dl>
      <div className="pane-empty">Loading the node’s record…</div>
    </div>
  );
}

function NodeInspector({ detail }: { detail: NodeDetail }) {
  const [showRaw, setShowRaw] = useState(false);
  const selectNode = useAppState((s) => s.selectNode);
  const tab = useAppState((s) => s.inspectorTab);
  const { node } = detail;
  // Arbor's own nodes (snapshot, fork, merge) say what they are, as in the graph.
  const workspaceKind = useAppState((s) => s.graph?.workspaceNodes?.find((info) => info.nodeId === node.id)?.kind ?? null);
  // The list's archive mark (issue 15): none of the session's transcripts is on disk, this node's included.
  const sourceDeleted = useAppState((s) => s.sessions.some((session) => session.id === s.selectedSessionId && session.sourceDeleted === true));
  return (
    <div className={`node-inspector kind-${node.kind}`}>
      <header className="node-inspector__head">
        <span className={`kind-badge kind-badge--${node.kind}`} data-testid="inspector-kind" data-kind={node.kind}>
          {workspaceKind ? WORKSPACE_KIND_LABELS[workspaceKind] : KIND_LABELS[node.kind]}
        </span>
        <span className="node-inspector__label" title={node.label}>
          {node.label}
        </span>
        {tab === 'content' ? (
          <button type="button" className={`toggle-button ${showRaw ? 'is-on' : ''}`} aria-pressed={showRaw} onClick={() => setShowRaw((v) => !v)}>
            Raw JSON
          </button>
        ) : null}
      </header>
      <InspectorTabs />
      <NodeActions nodeId={node.id} />
      {tab === 'files' ? (
        <NodeFilesView key={node.id} node={node} />
      ) : (
        <>
          <NodeMeta detail={detail} sourceDeleted={sourceDeleted} />
          {showRaw ? <RawView detail={detail} /> : <ContentView detail={detail} onOpenNode={(id) => void selectNode(id)} />}
        </>
      )}
    </div>
  );
}

function RawView({ detail }: { detail: NodeDetail }) {
  return (
    <section className="inspector-section">
      {detail.rawTruncatedAt !== null ? (
        <div className="notice notice--warning">Line cut at {detail.rawTruncatedAt} bytes; it is too large to show whole.</div>
      ) : null}
      <LongText text={prettyJson(detail.raw)} className="code-block" limit={200} />
    </section>
  );
}

function ContentView({ detail, onOpenNode }: { detail: NodeDetail; onOpenNode: (nodeId: string) => void }) {
  const { node } = detail;
  const drawnCalls = new Set(detail.toolCalls.map((c) => c.id));
  const blocks = detail.blocks.filter((b) => !(b.type === 'tool_use' && drawnCalls.has(b.id)));
  return (
    <>
      {blocks.length > 0 ? (
        <section className={`inspector-section ${node.kind === 'error' ? 'is-error' : ''}`}>
          {blocks.map((block, i) => (
            <ContentBlockView key={i} block={block} />
          ))}
        </section>
      ) : null}
      {detail.toolCalls.length > 0 ? (
        <section className="inspector-section">
          <h3 className="section-title">Tool calls</h3>
          {detail.toolCalls.map((call) => (
            <ToolCallView key={call.id} call={call} cwd={detail.cwd} onOpenNode={onOpenNode} />
          ))}
        </section>
      ) : null}
      {blocks.length === 0 && detail.toolCalls.length === 0 ? <div className="muted inspector-section">No content.</div> : null}
      {detail.records.length > 0 ? (
        <section className="inspector-section">
          <h3 className="section-title">Attached records</h3>
          {detail.records.map((record, i) => (
            <details key={i} className="record">
              <summary>
                <code>{record.type}</code> <span className="muted">line {record.line}</span>
              </summary>
              <LongText text={prettyJson(record.json)} className="code-block" />
            </details>
          ))}
        </section>
      ) : null}
    </>
  );
}
