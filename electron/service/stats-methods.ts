/** The tokens and cost methods (issue 15), bound to the store: one operation per file beside this one. */
import type { ArborApi, UsageMethods } from '../../shared/contract';
import type { SessionStore } from '../db/session-store';
import { createUsageStore } from '../db/usage-store';
import { listPrices, setPrice } from './prices-edit';
import { statsReport } from './stats-report';
import { branchesUsage, sessionUsage } from './stats-session-usage';

export function createStatsMethods(store: SessionStore, now: () => Date): Pick<ArborApi, keyof UsageMethods> {
  const usage = createUsageStore(store.handles);
  return {
    'stats.get': async (request, context) => statsReport(store, usage, request, context?.signal),
    'stats.session': async ({ sessionId }) => sessionUsage(store, usage, sessionId),
    'stats.branches': async ({ headIds }, context) => branchesUsage(usage, headIds, context?.signal),
    'prices.list': async () => listPrices(usage),
    'prices.set': async ({ price }) => setPrice(usage, price, now()),
    'prices.remove': async ({ pattern }) => ({ removed: usage.removePrice(pattern), prices: usage.prices() }),
    'prices.reset': async () => {
      usage.resetPrices();
      return { prices: usage.prices() };
    },
    'prices.setPlan': async (plan) => {
      usage.setPlan(plan);
      return { plans: usage.plans() };
    },
  };
}
