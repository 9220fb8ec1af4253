/** The graph's node components, memoized; `nodeTypes` lives at module scope so React Flow never remounts them. */
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import { memo } from 'react';
import type { NodeKind } from '../../../shared/model';
import type { GraphFlowNode, GraphItemData } from './mount-items';

const KIND_LABEL: Record<NodeKind, string> = {
  user: 'Prompt',
  assistant: 'Assistant',
  thinking: 'Thinking',
  tool_call: 'Tool call',
  tool_result: 'Result',
  error: 'Error',
  compaction: 'Compaction',
  system: 'System',
  progress: 'Progress',
  unknown: 'Unknown record',
};

const KIND_ICON: Record<NodeKind, string> = {
  user: '❯',
  assistant: '◆',
  thinking: '✻',
  tool_call: '⚙',
  tool_result: '↳',
  error: '✕',
  compaction: '⇲',
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
  if (data.branch) name += ` is-${data.branch}`;
  return name;
}

function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} className="graph-handle" />
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="graph-handle" />
    </>
  );
}

function BranchBadge({ data }: { readonly data: GraphItemData }) {
  if (!data.branch) return null;
  const text = data.branch === 'fork' ? `branch ×${data.branchWidth}` : `retry ×${data.branchWidth}`;
  const title = data.branch === 'fork' ? 'Real branch point: the conversation was rewound or a prompt edited' : 'The same turn was answered more than once';
  return (
    <span className="graph-badge" data-testid="branch-badge" title={title}>
      {text}
    </span>
  );
}

function SessionNodeView({ data }: NodeProps<GraphFlowNode>) {
  const title = data.toolName && data.kind === 'tool_call' ? data.toolName : KIND_LABEL[data.kind];
  return (
    <div
      className={classes(data, 'graph-node')}
      data-testid="graph-node"
      data-node-id={data.nodeId}
      data-kind={data.kind}
      data-selected={data.selected ? 'true' : undefined}
      title={data.label}
    >
      <Handles />
      <span className="graph-node__icon" aria-hidden="true">
        {KIND_ICON[data.kind]}
      </span>
      {data.lod ? null : (
        <span className="graph-node__text">
          <span className="graph-node__title">
            {title}
            {data.outcomeMissing ? <span className="graph-node__missing">outcome not recorded</span> : null}
          </span>
          <span className="graph-node__label">{data.label}</span>
        </span>
      )}
      <BranchBadge data={data} />
    </div>
  );
}

function FoldGroupView({ data }: NodeProps<GraphFlowNode>) {
  const agent = data.itemKind === 'agent';
  const title = agent ? `Agent: ${data.label}` : `${data.hidden} steps`;
  const detail = agent ? `${data.hidden} nodes` : data.summary;
  return (
    <div
      className={classes(data, `graph-node graph-group ${agent ? 'is-agent' : 'is-run'}`)}
      data-testid="graph-node"
      data-fold-id={data.foldId ?? undefined}
      data-kind={agent ? 'agent' : 'steps'}
      title={`${title} — click or press Enter to expand`}
    >
      <Handles />
      <span className="graph-node__icon" aria-hidden="true">
        {agent ? '⧉' : '⋮'}
      </span>
      {data.lod ? null : (
        <span className="graph-node__text">
          <span className="graph-node__title">{title}</span>
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
