/**
 * Tokens, prices and plans as callers see them (migration 023), over the session store's connections. A
 * read-only store from before 023 is not migrated: it answers with no replies and the shipped prices.
 */
import type { AgentPlan, ModelPrice, StatsFilters, StatsGrouping, UsageGroupRow } from '../../shared/usage';
import type { DatabaseHandles } from './database';
import { DEFAULT_PRICES } from './price-defaults';
import { insertPrice, preparePriceQueries, preparePriceWrites, readPlans, readPrices, removePrice, resetPrices, setPlan } from './price-table';
import { USAGE_BACKFILL_KEYS } from './usage-backfill';
import { branchUsage, prepareUsageQueries, usageGroups } from './usage-queries';

export interface UsageStore {
  /** Counted replies summed per group (`by`) and model, narrowed by `filters`. */
  groups(by: StatsGrouping | 'all', filters: StatsFilters): UsageGroupRow[];
  /** The replies on the path root → `headId`, summed per model. */
  branch(headId: string): UsageGroupRow[];
  prices(): ModelPrice[];
  setPrice(price: ModelPrice): void;
  /** False when no row had that pattern. */
  removePrice(pattern: string): boolean;
  resetPrices(): void;
  plans(): AgentPlan[];
  setPlan(plan: AgentPlan): void;
  /** True while lines stored before migration 023 are still being counted (usage-backfill.ts): figures are partial. */
  counting(): boolean;
}

export function createUsageStore(handles: DatabaseHandles): UsageStore {
  const migrated = handles.read.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'node_usage'").get() !== undefined;
  if (!migrated) {
    return {
      groups: () => [],
      branch: () => [],
      prices: () => [...DEFAULT_PRICES],
      setPrice: () => undefined,
      removePrice: () => false,
      resetPrices: () => undefined,
      plans: () => [],
      setPlan: () => undefined,
      counting: () => false,
    };
  }
  const queries = prepareUsageQueries(handles.read);
  const priceQueries = preparePriceQueries(handles.read);
  const value = (key: string) => `coalesce((SELECT value FROM meta WHERE key = '${key}'), 0)`;
  const backfill = handles.read.prepare<[], { counting: number }>(
    `SELECT ${value(USAGE_BACKFILL_KEYS.nodesUntil)} > ${value(USAGE_BACKFILL_KEYS.nodesDone)}
         OR ${value(USAGE_BACKFILL_KEYS.recordsUntil)} > ${value(USAGE_BACKFILL_KEYS.recordsDone)} AS counting`,
  );
  let writes: ReturnType<typeof preparePriceWrites> | null = null;
  // Prepared on first use: a read-only store never writes, and its writer may not exist.
  const write = () => (writes ??= preparePriceWrites(handles.write));
  return {
    groups: (by, filters) => usageGroups(queries, by, filters),
    branch: (headId) => branchUsage(queries, headId),
    prices: () => readPrices(priceQueries),
    setPrice: (price) => insertPrice(write(), price),
    removePrice: (pattern) => removePrice(write(), pattern),
    resetPrices: () => handles.write.transaction(() => resetPrices(write()))(),
    plans: () => readPlans(priceQueries),
    setPlan: (plan) => setPlan(write(), plan),
    counting: () => backfill.get()?.counting === 1,
  };
}
