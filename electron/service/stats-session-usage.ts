/**
 * `stats.session` and `stats.branches` (issue 15): a session's tokens and cost for its header, and each
 * branch's root → head for the graph's tooltip, so two attempts from one branch point can be compared.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { BranchUsage, SessionUsage } from '../../shared/usage';
import { figureOf } from '../../shared/usage';
import type { SessionStore } from '../db/session-store';
import type { UsageStore } from '../db/usage-store';
import { pricingOf } from './stats-report';

export function sessionUsage(sessions: SessionStore, usage: UsageStore, sessionId: string): SessionUsage {
  if (sessions.getSession(sessionId) === null) throw new ArborError('NOT_FOUND', `No session ${sessionId}`);
  const counting = usage.counting();
  return { sessionId, total: figureOf(usage.groups('all', { sessionId }), pricingOf(usage)), counting };
}

export function branchesUsage(usage: UsageStore, headIds: readonly string[], signal?: AbortSignal): { branches: BranchUsage[] } {
  const pricing = pricingOf(usage);
  const branches: BranchUsage[] = [];
  for (const headId of new Set(headIds)) {
    throwIfAborted(signal);
    branches.push({ headId, total: figureOf(usage.branch(headId), pricing) });
  }
  return { branches };
}
