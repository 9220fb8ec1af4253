/**
 * `stats.get` (issue 15): tokens and cost grouped by day, model, project, agent or session, the costliest
 * sessions, and what the Statistics view's filters can choose from. The store sums counted replies per group
 * and model; pricing is shared/usage.ts's, with the price table and plans read from the store each call.
 */
import type { StatsAnswer, TopSession } from '../../shared/contract';
import { throwIfAborted } from '../../shared/errors';
import type { SessionStore } from '../db/session-store';
import type { UsageStore } from '../db/usage-store';
import { figureOf, figuresByKey, tokenTotal, type PricingContext, type StatsFilters, type StatsGrouping, type UsageFigure } from '../../shared/usage';

const DEFAULT_TOP = 10;

export function pricingOf(usage: UsageStore): PricingContext {
  return { prices: usage.prices(), subscriptionAgents: new Set(usage.plans().filter((plan) => plan.subscription).map((plan) => plan.agent)) };
}

/** Costliest first; among figures of no known cost, the most tokens first. */
export function byCost(a: UsageFigure, b: UsageFigure): number {
  return (b.usd ?? -1) - (a.usd ?? -1) || tokenTotal(b.tokens) - tokenTotal(a.tokens);
}

export function statsReport(
  sessions: SessionStore,
  usage: UsageStore,
  request: { by?: StatsGrouping; filters?: StatsFilters; top?: number },
  signal?: AbortSignal,
): StatsAnswer {
  const by = request.by ?? 'day';
  const filters = request.filters ?? {};
  const pricing = pricingOf(usage);
  // Read first: a count finishing meanwhile makes the figures more complete, never marks partial ones whole.
  const counting = usage.counting();
  const rows = figuresByKey(usage.groups(by, filters), pricing);
  throwIfAborted(signal);
  const total = figureOf(usage.groups('all', filters), pricing);
  const perSession = by === 'session' ? rows : figuresByKey(usage.groups('session', filters), pricing);
  throwIfAborted(signal);
  const topSessions: TopSession[] = [...perSession]
    .sort(byCost)
    .slice(0, request.top ?? DEFAULT_TOP)
    .map(({ key, ...figure }) => {
      const session = sessions.getSession(key);
      return { sessionId: key, title: session?.title ?? key, project: session?.project ?? null, agent: session?.source ?? 'unknown', figure };
    });
  // The filters' choices come from everything stored, not from what the current filters leave.
  const projects = usage.groups('project', {}).map((row) => row.key);
  const agents = usage.groups('agent', {}).map((row) => row.key);
  return { by, filters, total, rows, counting, topSessions, projects: [...new Set(projects)], agents: [...new Set(agents)], plans: usage.plans() };
}
