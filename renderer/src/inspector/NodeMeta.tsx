import type { NodeDetail } from '../../../shared/model';
import { absoluteTime, formatCount, relativeTime } from '../app/format';
import { SOURCE_DELETED_TOOLTIP } from '../session/SourceDeletedNote';

/**
 * The facts about a node: when, which model, what it cost, where it ran. `sourceDeleted` is the session's
 * archive mark: its transcript is gone from disk, so the Source line says where the line is kept now.
 */
export function NodeMeta({ detail, sourceDeleted = false }: { detail: NodeDetail; sourceDeleted?: boolean }) {
  const { node, usage } = detail;
  const rows: Array<[string, React.ReactNode]> = [];
  if (node.timestamp) rows.push(['Time', <span title={relativeTime(node.timestamp)}>{absoluteTime(node.timestamp)}</span>]);
  if (node.model) rows.push(['Model', <code>{node.model}</code>]);
  if (usage) {
    rows.push([
      'Tokens',
      <span className="token-usage">
        <span title="Input tokens">in {formatCount(usage.inputTokens)}</span>
        <span title="Output tokens">out {formatCount(usage.outputTokens)}</span>
        {usage.cacheReadTokens > 0 ? <span title="Cache read tokens">cache read {formatCount(usage.cacheReadTokens)}</span> : null}
        {usage.cacheCreationTokens > 0 ? (
          <span title="Cache creation tokens">cache write {formatCount(usage.cacheCreationTokens)}</span>
        ) : null}
      </span>,
    ]);
  }
  if (detail.cwd) rows.push(['Directory', <code className="break">{detail.cwd}</code>]);
  if (detail.gitBranch) rows.push(['Git branch', <code>{detail.gitBranch}</code>]);
  if (node.sidechain) rows.push(['Subagent', <span>{node.agentId ?? 'yes'}</span>]);
  if (detail.version) rows.push(['Agent version', <span>{detail.version}</span>]);
  // Nodes Arbor added (snapshots, forks, merges) have no transcript line behind them.
  if (detail.file !== '') {
    rows.push([
      'Source',
      <>
        <code className="break" title={detail.file}>
          {detail.file.split(/[\\/]/).pop()}:{detail.line}
        </code>
        {sourceDeleted ? (
          <span className="source-deleted-note" data-testid="source-deleted-source" title={SOURCE_DELETED_TOOLTIP}>
            source deleted — kept in Arbor’s store
          </span>
        ) : null}
      </>,
    ]);
  }
  rows.push(['Node id', <code className="break">{node.sourceId}</code>]);
  return (
    <dl className="node-meta">
      {rows.map(([label, value]) => (
        <div key={label} className="node-meta__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
