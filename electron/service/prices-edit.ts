/**
 * `prices.*` (issue 15): the price table and the agents' plans, read and edited as data in the store. A
 * price the user sets is dated today (the clock is injected) unless it says its own date.
 */
import type { ArborMethods, PriceInput } from '../../shared/contract';
import type { ModelPrice } from '../../shared/usage';
import { DEFAULT_PRICES_DATE } from '../db/price-defaults';
import type { UsageStore } from '../db/usage-store';

type Result<M extends keyof ArborMethods> = ArborMethods[M]['result'];

export function listPrices(usage: UsageStore): Result<'prices.list'> {
  return { prices: usage.prices(), plans: usage.plans(), defaultsDate: DEFAULT_PRICES_DATE };
}

export function userPrice(input: PriceInput, now: Date): ModelPrice {
  return {
    pattern: input.pattern,
    input: input.input,
    output: input.output,
    cacheRead: input.cacheRead ?? 0,
    cacheWrite: input.cacheWrite ?? 0,
    effectiveDate: input.effectiveDate ?? now.toISOString().slice(0, 10),
    origin: 'user',
  };
}

export function setPrice(usage: UsageStore, input: PriceInput, now: Date): Result<'prices.set'> {
  usage.setPrice(userPrice(input, now));
  return { prices: usage.prices() };
}
