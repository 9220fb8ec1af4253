/** The price table as data in the store: listed, set, removed, reset, and bad numbers refused with a code. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_PRICES, DEFAULT_PRICES_DATE } from '../../../electron/db/price-defaults';
import { ArborError } from '../../../shared/errors';
import { openHarness, type Harness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const codeOf = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
  } catch (error) {
    return error instanceof ArborError ? error.code : 'not an ArborError';
  }
  return 'no error';
};

it('a new store lists the shipped prices with the date they were taken', async () => {
  const listed = await h.service.api['prices.list']({});
  expect(listed.defaultsDate).toBe(DEFAULT_PRICES_DATE);
  expect(listed.prices).toHaveLength(DEFAULT_PRICES.length);
  expect(listed.prices.every((price) => price.origin === 'default' && price.effectiveDate === DEFAULT_PRICES_DATE)).toBe(true);
});

it('a price set by the user is dated today, replaces one of the same pattern, and reset brings the shipped table back', async () => {
  const set = await h.service.api['prices.set']({ price: { pattern: 'claude-sonnet-4*', input: 2, output: 10, cacheRead: 0.2 } });
  const sonnet = set.prices.find((price) => price.pattern === 'claude-sonnet-4*');
  expect(sonnet).toEqual({ pattern: 'claude-sonnet-4*', input: 2, output: 10, cacheRead: 0.2, cacheWrite: 0, effectiveDate: '2026-03-01', origin: 'user' });
  expect(set.prices).toHaveLength(DEFAULT_PRICES.length);

  const added = await h.service.api['prices.set']({ price: { pattern: 'my-local-model', input: 0, output: 0, effectiveDate: '2026-01-15' } });
  expect(added.prices).toHaveLength(DEFAULT_PRICES.length + 1);
  expect((await h.service.api['prices.remove']({ pattern: 'my-local-model' })).removed).toBe(true);
  expect((await h.service.api['prices.remove']({ pattern: 'my-local-model' })).removed).toBe(false);

  const reset = await h.service.api['prices.reset']({});
  expect(reset.prices.find((price) => price.pattern === 'claude-sonnet-4*')).toMatchObject({ input: 3, output: 15, origin: 'default' });
});

it('bad numbers and patterns are refused with BAD_REQUEST, and nothing is stored', async () => {
  const set = (price: unknown) => h.service.api['prices.set']({ price } as never);
  expect(await codeOf(set({ pattern: 'x', input: -1, output: 1 }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'x', input: 1, output: Number.NaN }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'x', input: 1, output: Number.POSITIVE_INFINITY }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'x', input: '3', output: 1 }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'x', input: 1, output: 1, cacheRead: 1e9 }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'gpt-*-mini', input: 1, output: 1 }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: '*', input: 1, output: 1 }))).toBe('BAD_REQUEST');
  expect(await codeOf(set({ pattern: 'x', input: 1, output: 1, effectiveDate: 'yesterday' }))).toBe('BAD_REQUEST');
  expect((await h.service.api['prices.list']({})).prices).toHaveLength(DEFAULT_PRICES.length);
});
