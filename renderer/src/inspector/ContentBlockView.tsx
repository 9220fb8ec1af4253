import type { ContentBlock } from '../../../shared/model';
import { assertNever } from '../../../shared/errors';
import { formatCount, plural } from '../app/format';
import { LongText, prettyJson } from './LongText';
import { SafeMarkdown } from './SafeMarkdown';
import { ShapedToolUse } from '../conversation/CallShapeView';

export const MARKDOWN_MAX_CHARS = 60_000;

type ThinkingContent = Extract<ContentBlock, { type: 'thinking' }>;

/**
 * Thinking, folded. With `open` and `onToggle` the caller decides (the conversation opens the selected
 * node's thinking); without them it folds by itself.
 */
export function ThinkingBlock({ block, open, onToggle }: { block: ThinkingContent; open?: boolean; onToggle?: () => void }) {
  const controlled = open !== undefined && onToggle !== undefined;
  return (
    <details className="thinking-block" open={controlled ? open : undefined}>
      <summary
        onClick={
          controlled
            ? (event) => {
                event.preventDefault();
                onToggle();
              }
            : undefined
        }
      >
        {block.redacted ? 'Thinking (redacted)' : `Thinking · ${plural(block.text.split('\n').length, 'line')}`}
      </summary>
      {controlled && !open ? null : block.redacted ? (
        <div className="muted">The provider redacted this thinking.</div>
      ) : block.text.length > MARKDOWN_MAX_CHARS ? (
        <LongText text={block.text} />
      ) : (
        <SafeMarkdown text={block.text} />
      )}
    </details>
  );
}

/** One normalized content block of a node. tool_use blocks with a matching ToolCallDetail are drawn elsewhere. */
export function ContentBlockView({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      // Markdown parsing of a huge paste would stall the inspector; show it as collapsed plain text.
      return block.text.length > MARKDOWN_MAX_CHARS ? <LongText text={block.text} /> : <SafeMarkdown text={block.text} />;
    case 'thinking':
      return <ThinkingBlock block={block} />;
    case 'tool_use':
      // A call with no stored pairing (a Codex web search has no call id) still reads as what it is.
      if (block.shape) return <ShapedToolUse name={block.name} shape={block.shape} />;
      return (
        <div className="tool-call">
          <div className="tool-call__head">
            <span className="tool-call__name">{block.name}</span>
            <span className="tool-call__id">{block.id}</span>
          </div>
          <LongText text={prettyJson(block.input)} className="code-block" limit={40} />
        </div>
      );
    case 'tool_result':
      return (
        <div className={`tool-result ${block.isError ? 'is-error' : ''}`}>
          <div className="tool-result__head">
            <span className="field-label">
              Result of <code className="tool-id">{block.toolUseId}</code>
            </span>
            <span className={`badge badge--outcome badge--${block.isError ? 'error' : 'ok'}`} data-testid="tool-outcome">
              {block.isError ? 'error' : 'ok'}
            </span>
          </div>
          <LongText text={block.text} className={block.isError ? 'code-block is-error' : 'code-block'} />
        </div>
      );
    case 'image':
      return (
        <div className="muted image-block">
          [image · {block.mediaType} · {formatCount(block.bytes)} bytes — not displayed]
        </div>
      );
    case 'other':
      return (
        <div className="other-block">
          <div className="field-label">{block.blockType}</div>
          <LongText text={prettyJson(block.json)} className="code-block" />
        </div>
      );
    default:
      return assertNever(block, 'content block');
  }
}
