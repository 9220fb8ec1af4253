/** The graph's node components, memoized; `nodeTypes` lives at module scope so React Flow never remounts them. */
import { BaseEdge, Handle, Position, type Edge, type EdgeProps, type EdgeTypes, type NodeProps, type NodeTypes } from '@xyflow/react';
import { BranchCostTip } from '../statistics/BranchCostTip';
import { memo } from 'react';
import { assertNever } from '../../../shared/errors';
import type { NodeKind, WorkspaceStateKnown } from '../../../shared/model';
import type { WorkspaceNodeKind } from '../../../shared/operations';
import { plainText } from './card-text';
import { treeItemDomId, type GraphFlowNode, type GraphItemData } from './mount-items';

const KIND_ICON: Record<NodeKind, string> = {
  user: '❯',
  assistant: '◆',
  thinking: '✻',
  tool_call: '⚙',
  tool_result: '↳',
  error: '✕',
  compaction: '⇲',
  'merge-summary': '⇄',
  system: '⚑',
  progress: '…',
  unknown: '?',
};

function classes(data: GraphItemData, base: string): string {
  let name = `${base} kind-${data.kind}`;
  if (data.selected) name += ' is-selected';
  if (data.onPath) name += ' is-path';
  if (data.focused) name += ' is-focused';
  if (data.lod) name += ' is-lod';
  // A workspace branch point looks like a rewind's (`is-workspace` is taken by Arbor's own nodes).
  if (data.branch) name += data.branch === 'retry' ? ' is-retry' : ' is-fork';
  if (data.compared) name += ' is-compared';
  if (data.workspaceKind) name += ` is-workspace workspace-${data.workspaceKind}`;
  if (data.failed) name += ' is-failed';
  if (data.holdsSelection) name += ' holds-selection';
  return `${name} lane-${data.lane}`;
}

/** Inline icons for Arbor's own nodes (no font has to carry a fork or merge glyph). */
function WorkspaceIcon({ kind }: { readonly kind: WorkspaceNodeKind }) {
  const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.7, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
  switch (kind) {
    case 'snapshot':
    case 'hook-snapshot':
      return (
        <svg width="13" height="13" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="1.5" y="4" width="13" height="9.5" rx="2" {...stroke} />
          <circle cx="8" cy="8.7" r="2.4" {...stroke} />
          <path d="M5.5 4l1-1.8h3l1 1.8" {...stroke} />
        </svg>
      );
    case 'fork':
      return (
        <svg width="13" height="13" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="4" cy="3" r="1.6" {...stroke} />
          <circle cx="4" cy="13" r="1.6" {...stroke} />
          <circle cx="12" cy="6" r="1.6" {...stroke} />
          <path d="M4 4.6v6.8M12 7.6c0 2.6-3.5 2.9-7.2 4.2" {...stroke} />
        </svg>
      );
    case 'merge':
      return (
        <svg width="13" height="13" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="4" cy="3" r="1.6" {...stroke} />
          <circle cx="4" cy="13" r="1.6" {...stroke} />
          <circle cx="12" cy="10" r="1.6" {...stroke} />
          <path d="M4 4.6v6.8M4.8 4.4c1 3.2 3.4 5 5.6 5.5" {...stroke} />
        </svg>
      );
    default:
      return assertNever(kind);
  }
}

const STATE_TITLE: Record<WorkspaceStateKnown, string> = {
  exact: 'Workspace state: exact snapshot',
  reconstructed: 'Workspace state: reconstructed from the transcript (the files the session touched)',
  unknown: 'Workspace state: unknown (files may have changed without a record)',
};

/** A dot in the corner: how this node's workspace state is known. Pure CSS, nothing to measure. */
function StateMarker({ known }: { readonly known: WorkspaceStateKnown | null }) {
  if (known === null) return null;
  return <span className={`graph-state graph-state--${known}`} data-testid="state-marker" data-known={known} title={STATE_TITLE[known]} />;
}

/** "compare" on the node Shift+click chose as the other end of a comparison. */
function CompareTag({ data }: { readonly data: GraphItemData }) {
  if (!data.compared) return null;
  return (
    <span className="graph-compare-tag" data-testid="compare-tag" title="Compared with the selected node (Shift+click another node to change)">
      compare
    </span>
  );
}

function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} className="graph-handle" />
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="graph-handle" />
    </>
  );
}

/** On a branch point: how many ways the conversation goes on from here. */
function BranchBadge({ data }: { readonly data: GraphItemData }) {
  if (!data.branch) return null;
  const text = data.branch === 'retry' ? `${data.branchWidth} answers` : `${data.branchWidth} branches`;
  const title =
    data.branch === 'fork'
      ? `Branch point: the conversation was rewound or a prompt edited; ${data.branchWidth} branches start below`
      : data.branch === 'workspace'
        ? `Branch point: Arbor forked, merged or snapshotted the workspace here; ${data.branchWidth} branches start below`
        : `The same turn was answered ${data.branchWidth} times`;
  return (
    <BranchCostTip nodeId={data.nodeId}>
      <span className="graph-badge" data-testid="branch-badge" title={title}>
        {text}
      </span>
    </BranchCostTip>
  );
}

/** On the first node of each branch: which branch this is, so the split reads at a glance. */
function BranchTag({ data }: { readonly data: GraphItemData }) {
  if (!data.branchTag || data.lod) return null;
  return (
    <span className="graph-branch-tag" data-testid="branch-tag">
      {data.branchTag}
    </span>
  );
}

const MISSING_TITLE = 'outcome not recorded: the call was requested, but the transcript holds no result';

/** "no result" fits beside any tool name; the full words stay in the text for readers and search. */
function MissingOutcome() {
  return (
    <span className="graph-node__missing" title={MISSING_TITLE}>
      <span aria-hidden="true">no result</span>
      <span className="graph-visually-hidden">outcome not recorded</span>
    </span>
  );
}

/** On the call's own card: the call failed (its result is an error). */
function FailedMark({ title = 'This call failed: its result is an error' }: { readonly title?: string }) {
  return (
    <span className="graph-node__failed" data-testid="failed-mark" title={title}>
      failed
    </span>
  );
}

/** Hidden lines (hooks, progress, filtered kinds) that hang on this step; a click shows them. */
function HiddenLines({ data }: { readonly data: GraphItemData }) {
  if (data.hiddenLines === 0 || data.lod) return null;
  const lines = data.hiddenLines === 1 ? '1 hidden line' : `${data.hiddenLines} hidden lines`;
  return (
    <span className="graph-node__hidden" data-testid="hidden-lines" data-count={data.hiddenLines} title={`${lines} (hooks, progress, filtered kinds): click to show`}>
      +{data.hiddenLines}
    </span>
  );
}

function nodeTitle(data: GraphItemData): string {
  let title = `${data.title}\n${data.label}`;
  if (data.failed) title += ' — failed';
  if (data.outcomeMissing) title += ' — outcome not recorded';
  if (data.branchTag) title += ` (${data.branchTag})`;
  if (data.holdsSelection) title += '\nThe selected line is hidden by a filter; it hangs on this step';
  return title;
}

/** Two stacked cards: a subagent run folded into one node (inline, so no font has to carry the glyph). */
function AgentIcon() {
  return (
    <svg width="13" height="13" viewBox="0 0 16 16" aria-hidden="true">
      <rect x="1.5" y="4.5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M5.5 2.5h6.5a1.5 1.5 0 0 1 1.5 1.5v6.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

function SessionNodeView({ id, data }: NodeProps<GraphFlowNode>) {
  return (
    <div
      id={treeItemDomId(id)}
      className={classes(data, 'graph-node')}
      data-testid="graph-node"
      data-node-id={data.nodeId}
      data-kind={data.kind}
      data-selected={data.selected ? 'true' : undefined}
      data-compared={data.compared ? 'true' : undefined}
      data-workspace-kind={data.workspaceKind ?? undefined}
      data-failed={data.failed ? 'true' : undefined}
      title={nodeTitle(data)}
      role="treeitem"
      aria-label={data.lod ? `${data.title}: ${data.text.length > 0 ? data.text : plainText(data.label)}` : undefined}
      aria-selected={data.selected === true}
    >
      <Handles />
      <span className="graph-node__icon" aria-hidden="true">
        {data.workspaceKind ? <WorkspaceIcon kind={data.workspaceKind} /> : KIND_ICON[data.kind]}
      </span>
      {data.lod ? null : (
        <span className="graph-node__text">
          <span className="graph-node__title">
            <span className="graph-node__name" data-testid="card-title">{data.title}</span>
            {data.failed ? <FailedMark /> : null}
            {data.outcomeMissing ? <MissingOutcome /> : null}
            <BranchTag data={data} />
            <CompareTag data={data} />
          </span>
          {data.text.length > 0 ? (
            <span className="graph-node__label" data-testid="card-text">
              {data.text}
            </span>
          ) : null}
        </span>
      )}
      <HiddenLines data={data} />
      <BranchBadge data={data} />
      <StateMarker known={data.known} />
    </div>
  );
}

function FoldGroupView({ id, data }: NodeProps<GraphFlowNode>) {
  const agent = data.itemKind === 'agent';
  const title = agent ? `Agent: ${plainText(data.label)}` : `${data.hidden} steps`;
  const detail = agent ? `${data.hidden} nodes` : data.summary;
  return (
    <div
      id={treeItemDomId(id)}
      className={classes(data, `graph-node graph-group ${agent ? 'is-agent' : 'is-run'}`)}
      data-testid="graph-node"
      data-fold-id={data.foldId ?? undefined}
      data-kind={agent ? 'agent' : 'steps'}
      data-failed={data.failed ? 'true' : undefined}
      title={`${title} — click or press Enter to expand`}
      role="treeitem"
      aria-label={data.lod ? `${title}: ${detail}` : undefined}
      aria-expanded={false}
    >
      <Handles />
      <span className="graph-node__icon" aria-hidden="true">
        {agent ? <AgentIcon /> : '⋮'}
      </span>
      {data.lod ? null : (
        <span className="graph-node__text">
          <span className="graph-node__title">
            <span className="graph-node__name">{title}</span>
            {data.failed ? <FailedMark title="A call in these steps failed" /> : null}
            <BranchTag data={data} />
          </span>
          <span className="graph-node__label">{detail}</span>
        </span>
      )}
      <span className="graph-group__expand" aria-hidden="true">
        +
      </span>
    </div>
  );
}

export const nodeTypes: NodeTypes = {
  sessionNode: memo(SessionNodeView),
  foldGroup: memo(FoldGroupView),
};

/** A merge's second parent: the orthogonal route mountItems worked out through the gaps between cards. */
function MergeEdgeView({ data, style, markerEnd }: EdgeProps<Edge<{ path: string }>>) {
  return <BaseEdge path={data?.path ?? ''} style={style} markerEnd={markerEnd} />;
}

export const edgeTypes: EdgeTypes = {
  merge: memo(MergeEdgeView),
};
