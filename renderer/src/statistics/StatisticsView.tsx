/**
 * The Statistics view (issue 15): tokens and cost per day and per model as bars, the costliest sessions, the
 * filters (project, agent, dates), and the price table and plans that make the costs, editable. Every cost says
 * how it is known: priced (with the prices' date), reported by the agent, model unknown, or subscription.
 */
import { useCallback, useEffect, useState } from 'react';
import type { StatsAnswer } from '../../../shared/contract';
import type { StatsFilters, UsageFigure } from '../../../shared/usage';
import { formatTokens, formatUsd, tokenTotal } from '../../../shared/usage';
import { useAppState, useArborClient } from '../app/app-context';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import { BarChart, type Bar } from './BarChart';
import { longCost, shortCost } from './cost-words';
import { PriceTable } from './PriceTable';
import { GcSchedule } from '../forget/GcSchedule';
import { openCleanUp } from '../forget/forget-store';
import { statisticsStore, useStatisticsOpen } from './statistics-store';
import './statistics.css';

export function StatisticsLayer() {
  const open = useStatisticsOpen();
  if (!open) return null;
  return <StatisticsView onClose={() => statisticsStore.getState().close()} />;
}

type Metric = 'cost' | 'tokens';

/** How often a partial answer (tokens still being counted) is asked again. */
const COUNTING_POLL_MS = 2000;

function barsOf(rows: StatsAnswer['rows'], metric: Metric): Bar[] {
  return rows.map((row) => ({
    key: row.key,
    value: metric === 'cost' ? (row.usd ?? 0) : tokenTotal(row.tokens),
    text: metric === 'cost' ? shortCost(row) : `${formatTokens(tokenTotal(row.tokens))} tokens`,
    detail: longCost(row),
  }));
}

function StatisticsView({ onClose }: { readonly onClose: () => void }) {
  const client = useArborClient();
  const openSession = useAppState((s) => s.openSession);
  const [filters, setFilters] = useState<StatsFilters>({});
  const [metric, setMetric] = useState<Metric>('cost');
  const [byDay, setByDay] = useState<StatsAnswer | null>(null);
  const [byModel, setByModel] = useState<StatsAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([client.call('stats.get', { by: 'day', filters }), client.call('stats.get', { by: 'model', filters, top: 0 })]).then(
      ([day, model]) => {
        if (!live) return;
        setByDay(day);
        setByModel(model);
        setError(null);
      },
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [client, filters, revision]);

  const setFilter = (key: keyof StatsFilters, value: string) =>
    setFilters((current) => {
      const next: Record<string, string> = { ...current };
      if (value === '') delete next[key];
      else next[key] = value;
      return next;
    });
  const changed = useCallback(() => setRevision((r) => r + 1), []);
  // A store from before tokens were counted is read in the background: ask again until it is done.
  const counting = byDay?.counting === true || byModel?.counting === true;
  useEffect(() => {
    if (!counting) return;
    const timer = setTimeout(changed, COUNTING_POLL_MS);
    return () => clearTimeout(timer);
  }, [counting, byDay, changed]);

  let body: React.ReactNode;
  if (error !== null) body = <ErrorBox error={error} what="The statistics could not be read." />;
  else if (byDay === null || byModel === null) body = <div className="tt-loading">Counting tokens…</div>;
  else
    body = (
      <>
        <div className="stats-filters" role="group" aria-label="Filters">
          <label>
            Project
            <select value={filters.project ?? ''} onChange={(e) => setFilter('project', e.target.value)} data-testid="stats-project">
              <option value="">All projects</option>
              {byDay.projects.map((project) => (
                <option key={project} value={project}>
                  {project}
                </option>
              ))}
            </select>
          </label>
          <label>
            Agent
            <select value={filters.agent ?? ''} onChange={(e) => setFilter('agent', e.target.value)} data-testid="stats-agent">
              <option value="">All agents</option>
              {byDay.agents.map((agent) => (
                <option key={agent} value={agent}>
                  {agent}
                </option>
              ))}
            </select>
          </label>
          <label>
            From
            <input type="date" value={filters.from ?? ''} onChange={(e) => setFilter('from', e.target.value)} data-testid="stats-from" />
          </label>
          <label>
            To
            <input type="date" value={filters.to ?? ''} onChange={(e) => setFilter('to', e.target.value)} data-testid="stats-to" />
          </label>
          <label>
            Bars show
            <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)} data-testid="stats-metric">
              <option value="cost">cost</option>
              <option value="tokens">tokens</option>
            </select>
          </label>
        </div>
        {counting && (
          <p className="stats-counting" role="status" data-testid="stats-counting">
            Counting tokens in sessions stored before this version… these figures are partial.
          </p>
        )}
        <Total figure={byDay.total} />
        <div className="stats-charts">
          <BarChart title={`${metric === 'cost' ? 'Cost' : 'Tokens'} per day`} bars={barsOf(byDay.rows, metric)} />
          <BarChart title={`${metric === 'cost' ? 'Cost' : 'Tokens'} per model`} bars={barsOf(byModel.rows, metric)} />
        </div>
        <h3 className="stats-heading">Top sessions</h3>
        {byDay.topSessions.length === 0 ? (
          <p className="stats-empty">No session used tokens in this range.</p>
        ) : (
          <table className="stats-table" data-testid="stats-top-sessions">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Agent</th>
                <th scope="col" className="is-number">
                  Tokens
                </th>
                <th scope="col" className="is-number">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {byDay.topSessions.map((top) => (
                <tr key={top.sessionId}>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      title={top.project ?? undefined}
                      onClick={() => {
                        onClose();
                        void openSession(top.sessionId, null);
                      }}
                    >
                      {top.title}
                    </button>
                  </td>
                  <td>{top.agent}</td>
                  <td className="is-number">{formatTokens(tokenTotal(top.figure.tokens))}</td>
                  <td className="is-number" title={longCost(top.figure)}>
                    {top.figure.usd === null ? shortCost(top.figure).split(' · ')[0] : formatUsd(top.figure.usd)}
                    <KnownAs figure={top.figure} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <PriceTable onChanged={changed} />
      </>
    );
  return (
    <Modal title="Statistics" onClose={onClose} size="wide" testId="statistics">
      <section className="stats" role="region" aria-label="Statistics">
        {body}
        <GcSchedule
          onCleanUp={() => {
            // One dialog at a time: Clean up replaces Statistics (both would take Escape).
            onClose();
            openCleanUp();
          }}
        />
      </section>
    </Modal>
  );
}

function KnownAs({ figure }: { readonly figure: UsageFigure }) {
  return <span className="stats-known">{figure.bases.map((basis) => (basis === 'priced' ? 'priced' : basis.replace('-', ' '))).join(', ')}</span>;
}

function Total({ figure }: { readonly figure: UsageFigure }) {
  const t = figure.tokens;
  return (
    <dl className="stats-total" data-testid="stats-total">
      <div>
        <dt>Cost</dt>
        <dd title={longCost(figure)}>
          {figure.usd === null ? '—' : formatUsd(figure.usd)} <KnownAs figure={figure} />
          {figure.priceDate !== null ? <span className="stats-known"> (prices of {figure.priceDate})</span> : null}
        </dd>
      </div>
      <div>
        <dt>Input</dt>
        <dd>{formatTokens(t.input)}</dd>
      </div>
      <div>
        <dt>Output</dt>
        <dd>{formatTokens(t.output)}</dd>
      </div>
      <div>
        <dt>Cache read</dt>
        <dd>{formatTokens(t.cacheRead)}</dd>
      </div>
      <div>
        <dt>Cache write</dt>
        <dd>{formatTokens(t.cacheWrite)}</dd>
      </div>
      <div>
        <dt>Replies</dt>
        <dd>{figure.replies}</dd>
      </div>
    </dl>
  );
}
