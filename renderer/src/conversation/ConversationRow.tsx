/**
 * One row of the conversation: a prompt, a reply, thinking, tool calls with their results, a compaction
 * divider or a small annotation. Until its details arrive it shows the node's one-line label, so a fast
 * scroll never shows blank space.
 */
import { memo, useMemo, type MouseEvent } from 'react';
import { useStore } from 'zustand';
import type { ContentBlock, NodeDetail, NodeSummary } from '../../../shared/model';
import { KIND_LABELS } from '../app/format';
import { ContentBlockView, ThinkingBlock } from '../inspector/ContentBlockView';
import { LongText } from '../inspector/LongText';
import { SafeMarkdown } from '../inspector/SafeMarkdown';
import type { BranchOrdinal } from '../../../shared/graph/branch-points';
import type { ConversationStore } from './conversation-store';
import { ToolCallRow } from './ToolCallRow';

export interface RowProps {
  readonly summary: NodeSummary;
  readonly kind: 'message' | 'annotation' | 'compaction';
  readonly selected: boolean;
  readonly ordinal: BranchOrdinal | null;
  readonly store: ConversationStore;
  readonly onSelect: (nodeId: string) => void;
  readonly onSwitchBranch?: (nodeId: string, direction: 1 | -1) => void;
  /** Subagent blocks under this row's calls (rendered by the caller, so rows nest without a cycle). */
  readonly children?: React.ReactNode;
}

const INTERACTIVE = 'button, a, summary, input, textarea, select, .conv-branch';

export const ConversationRow = memo(function ConversationRow({ summary, kind, selected, ordinal, store, onSelect, onSwitchBranch, children }: RowProps) {
  const detail = useStore(store, (s) => s.details.get(summary.id));
  const open = useStore(store, (s) => s.open.has(summary.id));
  const toggle = useStore(store, (s) => s.toggle);
  const onClick = (event: MouseEvent<HTMLElement>) => {
    // Clicking a control, or selecting text to copy, does not move the selection.
    if ((event.target as HTMLElement).closest(INTERACTIVE) || (window.getSelection()?.toString() ?? '') !== '') return;
    onSelect(summary.id);
  };
  const className = ['conv-row', `conv-row--${kind}`, `conv-row--${summary.kind}`, selected ? 'is-selected' : ''].filter(Boolean).join(' ');
  return (
    <article className={className} data-testid="conversation-row" data-node-id={summary.id} data-kind={summary.kind} data-selected={selected} data-loaded={detail !== undefined || kind === 'annotation'} aria-current={selected ? 'step' : undefined} onClick={onClick}>
      {ordinal !== null && onSwitchBranch ? <BranchSwitch ordinal={ordinal} onSwitch={(direction) => onSwitchBranch(summary.id, direction)} /> : null}
      {kind === 'annotation' ? (
        <div className="conv-annotation" title={summary.label}>
          {summary.label}
        </div>
      ) : kind === 'compaction' ? (
        <Compaction summary={summary} detail={detail} open={open} onToggle={() => toggle(summary.id)} />
      ) : (
        <Message summary={summary} detail={detail} open={open} onToggle={() => toggle(summary.id)} />
      )}
      {children}
    </article>
  );
});

function BranchSwitch({ ordinal, onSwitch }: { ordinal: BranchOrdinal; onSwitch: (direction: 1 | -1) => void }) {
  return (
    <div className="conv-branch" data-testid="branch-switch">
      <button type="button" className="conv-branch__step" aria-label="Previous branch" disabled={ordinal.index <= 1} onClick={() => onSwitch(-1)}>
        ‹
      </button>
      <span className="conv-branch__label">
        branch {ordinal.index} of {ordinal.of}
      </span>
      <button type="button" className="conv-branch__step" aria-label="Next branch" disabled={ordinal.index >= ordinal.of} onClick={() => onSwitch(1)}>
        ›
      </button>
    </div>
  );
}

const ROLE_LABELS: Partial<Record<NodeSummary['kind'], string>> = { user: 'You', assistant: 'Agent', error: 'Error' };
/** In a subagent run the prompt is the spawning agent's, not the person's. */
const SIDECHAIN_ROLE_LABELS: Partial<Record<NodeSummary['kind'], string>> = { user: 'Task', assistant: 'Subagent', error: 'Error' };

function Message({ summary, detail, open, onToggle }: { summary: NodeSummary; detail: NodeDetail | undefined; open: boolean; onToggle: () => void }) {
  const role = (summary.sidechain ? SIDECHAIN_ROLE_LABELS : ROLE_LABELS)[summary.kind];
  const model = summary.kind === 'assistant' && summary.model ? summary.model : null;
  return (
    <>
      {role ? (
        <div className="conv-row__role">
          {role}
          {model ? <span className="conv-row__model">{model}</span> : null}
        </div>
      ) : null}
      {detail ? <MessageBody detail={detail} open={open} onToggle={onToggle} /> : <div className="conv-placeholder">{summary.label || KIND_LABELS[summary.kind]}</div>}
    </>
  );
}

function MessageBody({ detail, open, onToggle }: { detail: NodeDetail; open: boolean; onToggle: () => void }) {
  const blocks = useMemo(() => {
    const drawn = new Set(detail.toolCalls.map((call) => call.id));
    return detail.blocks.filter((block) => !(block.type === 'tool_use' && drawn.has(block.id)));
  }, [detail]);
  const isError = detail.node.kind === 'error';
  return (
    <div className={`conv-row__body ${isError ? 'is-error' : ''}`}>
      {blocks.map((block, i) => (
        <Block key={i} block={block} open={open} onToggle={onToggle} />
      ))}
      {detail.toolCalls.map((call) => (
        <ToolCallRow key={call.id} call={call} cwd={detail.cwd} full={open && detail.node.kind === 'tool_call'} />
      ))}
      {blocks.length === 0 && detail.toolCalls.length === 0 ? <div className="conv-placeholder">{detail.node.label}</div> : null}
    </div>
  );
}

function Block({ block, open, onToggle }: { block: ContentBlock; open: boolean; onToggle: () => void }) {
  return block.type === 'thinking' ? <ThinkingBlock block={block} open={open} onToggle={onToggle} /> : <ContentBlockView block={block} />;
}

function Compaction({ summary, detail, open, onToggle }: { summary: NodeSummary; detail: NodeDetail | undefined; open: boolean; onToggle: () => void }) {
  const text = detail?.blocks.find((block) => block.type === 'text')?.text ?? null;
  const merge = summary.kind === 'merge-summary';
  return (
    <div className="conv-compaction" data-testid={merge ? 'conversation-merge-summary' : 'conversation-compaction'}>
      <div className="conv-compaction__rule">
        <span>{merge ? 'Merge summary of the other branch' : 'Conversation compacted'}</span>
      </div>
      {text !== null ? (
        <details className="conv-compaction__summary" open={open}>
          <summary
            onClick={(event) => {
              event.preventDefault();
              onToggle();
            }}
          >
            {open ? 'Summary' : merge ? summary.label : firstLine(text)}
          </summary>
          {open ? <SafeMarkdownOrText text={text} /> : null}
        </details>
      ) : (
        <div className="conv-annotation">{summary.label}</div>
      )}
    </div>
  );
}

function SafeMarkdownOrText({ text }: { text: string }) {
  return text.length > 60_000 ? <LongText text={text} /> : <SafeMarkdown text={text} />;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}
