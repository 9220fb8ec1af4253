/**
 * The price table and the agents' plans as data in the store (migration 023): read, set, reset. Numbers are
 * checked here as well as at the boundary, so no writer can store a price a figure cannot be computed with.
 */
import { ArborError } from '../../shared/errors';
import { isValidPattern, isValidPrice, type AgentPlan, type ModelPrice } from '../../shared/usage';
import type { ReadableDB, WritableDB } from './database';
import { DEFAULT_PRICES } from './price-defaults';

interface PriceRow {
  pattern: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  effective_date: string;
  origin: string;
}

export function preparePriceWrites(db: WritableDB) {
  return {
    upsert: db.prepare<[string, number, number, number, number, string, string]>(
      `INSERT OR REPLACE INTO prices (pattern, input, output, cache_read, cache_write, effective_date, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    remove: db.prepare<[string]>('DELETE FROM prices WHERE pattern = ?'),
    clear: db.prepare('DELETE FROM prices'),
    setPlan: db.prepare<[string, number]>('INSERT OR REPLACE INTO agent_plans (agent, subscription) VALUES (?, ?)'),
  };
}
export type PriceWrites = ReturnType<typeof preparePriceWrites>;

export function preparePriceQueries(db: ReadableDB) {
  return {
    all: db.prepare<[], PriceRow>('SELECT pattern, input, output, cache_read, cache_write, effective_date, origin FROM prices ORDER BY pattern'),
    plans: db.prepare<[], { agent: string; subscription: number }>('SELECT agent, subscription FROM agent_plans ORDER BY agent'),
  };
}
export type PriceQueries = ReturnType<typeof preparePriceQueries>;

/** Refuses a price no figure could use: BAD_REQUEST names the field. */
export function checkPrice(price: ModelPrice): void {
  if (!isValidPattern(price.pattern)) throw new ArborError('BAD_REQUEST', `model pattern ${JSON.stringify(price.pattern)}: a name, or a prefix ending in *`, { path: 'pattern' });
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
    if (!isValidPrice(price[field])) throw new ArborError('BAD_REQUEST', `${field}: expected dollars per million tokens, 0 or more`, { path: field });
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(price.effectiveDate) || !Number.isFinite(Date.parse(price.effectiveDate))) {
    throw new ArborError('BAD_REQUEST', 'effectiveDate: expected YYYY-MM-DD', { path: 'effectiveDate' });
  }
}

export function insertPrice(writes: PriceWrites, price: ModelPrice): void {
  checkPrice(price);
  writes.upsert.run(price.pattern, price.input, price.output, price.cacheRead, price.cacheWrite, price.effectiveDate, price.origin);
}

export function readPrices(queries: PriceQueries): ModelPrice[] {
  return queries.all.all().map((row) => ({
    pattern: row.pattern,
    input: row.input,
    output: row.output,
    cacheRead: row.cache_read,
    cacheWrite: row.cache_write,
    effectiveDate: row.effective_date,
    origin: row.origin === 'user' ? 'user' : 'default',
  }));
}

export function readPlans(queries: PriceQueries): AgentPlan[] {
  return queries.plans.all().map((row) => ({ agent: row.agent, subscription: row.subscription !== 0 }));
}

/** The shipped table again: the user's rows go. */
export function resetPrices(writes: PriceWrites): void {
  writes.clear.run();
  for (const price of DEFAULT_PRICES) insertPrice(writes, price);
}

export function removePrice(writes: PriceWrites, pattern: string): boolean {
  return writes.remove.run(pattern).changes > 0;
}

export function setPlan(writes: PriceWrites, plan: AgentPlan): void {
  if (plan.agent.length === 0 || plan.agent.length > 200) throw new ArborError('BAD_REQUEST', 'agent: expected a name', { path: 'agent' });
  writes.setPlan.run(plan.agent, plan.subscription ? 1 : 0);
}
