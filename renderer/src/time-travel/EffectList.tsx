import type { NodeId, ToolOutcome } from '../../../shared/model';
import type { SideEffect } from '../../../shared/operations';
import { entryLabels, LEDGER_OUTCOME_TEXT, replayText, SIDE_EFFECT_LABELS, type LedgerEntry, type LedgerReplay } from '../../../shared/side-effect-ledger';
import './ledger.css';

/** One step that reached outside the workspace, as the rewind preview, the fork and merge dialogs and the ledger show it. */
export interface EffectRow {
  readonly key: string;
  readonly nodeId: NodeId;
  /** The kind it is styled by (`local` for a git commit: nothing left the machine, and a repeat still doubles it). */
  readonly kind: string;
  readonly labels: readonly string[];
  readonly tool: string;
  readonly summary: string;
  /** Absent where the list has no outcomes (the rewind preview's). */
  readonly outcome?: ToolOutcome;
  readonly replayOf?: LedgerReplay | null;
}

/** A preview's side effects; with the ledger's entries, each with its outcome and replay mark where the ledger has it. */
export function rowsOfSideEffects(effects: readonly SideEffect[], ledger: readonly LedgerEntry[] = []): EffectRow[] {
  const entries = new Map(ledger.map((entry) => [entry.toolUseId, entry]));
  return effects.map((effect) => {
    const entry = entries.get(effect.toolUseId);
    return {
      key: `${effect.toolUseId}:${effect.kind}`,
      nodeId: effect.nodeId,
      kind: effect.kind,
      labels: [SIDE_EFFECT_LABELS[effect.kind]],
      tool: effect.tool,
      summary: effect.summary,
      ...(entry === undefined ? {} : { outcome: entry.outcome, replayOf: entry.replayOf }),
    };
  });
}

export function rowsOfLedger(entries: readonly LedgerEntry[]): EffectRow[] {
  return entries.map((entry) => ({
    key: entry.toolUseId,
    nodeId: entry.nodeId,
    kind: entry.kinds[0] ?? 'local',
    labels: entryLabels(entry),
    tool: entry.tool,
    summary: entry.summary,
    outcome: entry.outcome,
    replayOf: entry.replayOf,
  }));
}

export interface EffectListProps {
  readonly rows: readonly EffectRow[];
  readonly title?: string;
  readonly intro: string;
  readonly testId?: string;
  /** Shows a step in the graph (the earlier request of a replay); without it (a dialog about one node) there is no link. */
  readonly onShowNode?: (nodeId: NodeId) => void;
  /** The list is the dialog's content: no scroll box of its own. */
  readonly tall?: boolean;
}

/** Steps that reached outside the workspace: what they were, how they ended, and the ones that may have run twice. */
export function EffectList({ rows, title = 'Side effects', intro, testId = 'side-effects', onShowNode, tall = false }: EffectListProps) {
  if (rows.length === 0) return null;
  const replays = rows.filter((row) => row.replayOf).length;
  return (
    <section className="tt-group tt-effects" data-testid={testId} aria-label={title}>
      <h3 className="tt-group__title">
        {title} <span className="tt-count tt-count--warning">{rows.length}</span>
        {replays > 0 ? (
          <span className="badge ledger-replay-count" data-testid="replay-count">
            {replays === 1 ? '1 possible double effect' : `${replays} possible double effects`}
          </span>
        ) : null}
      </h3>
      <p className="tt-effects__intro">{intro}</p>
      <ul className={`tt-paths ledger-list${tall ? ' ledger-list--tall' : ''}`}>
        {rows.map((row) => (
          <li key={row.key} className={`tt-effect${row.replayOf ? ' tt-effect--replay' : ''}`} data-kind={row.kind} data-outcome={row.outcome}>
            {row.labels.map((label) => (
              <span key={label} className={`badge tt-effect__kind tt-effect__kind--${row.kind}`}>
                {label}
              </span>
            ))}
            <span className="tt-effect__tool">{row.tool}</span>
            <code className="tt-effect__summary" title={row.summary}>
              {row.summary}
            </code>
            {row.outcome !== undefined ? <span className={`badge badge--${row.outcome} ledger-outcome`}>{LEDGER_OUTCOME_TEXT[row.outcome]}</span> : null}
            {row.replayOf ? (
              <p className="ledger-replay" data-testid="replay">
                <span aria-hidden="true">⚠ </span>
                {replayText(row.replayOf)}{' '}
                {onShowNode ? (
                  <button type="button" className="link-button" onClick={() => onShowNode(row.replayOf!.nodeId)}>
                    Show the earlier request
                  </button>
                ) : null}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
