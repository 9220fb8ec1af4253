import { describe, expect, it } from 'vitest';
import { describeCost, figureOf, formatTokens, formatUsd, isValidPattern, priceFor, type ModelPrice, type UsageGroupRow } from '../../../shared/usage';

const price = (pattern: string, input: number, output: number): ModelPrice => ({ pattern, input, output, cacheRead: input / 10, cacheWrite: input * 1.25, effectiveDate: '2026-03-21', origin: 'default' });
const PRICES = [price('claude-opus-4*', 15, 75), price('claude-opus-4-5*', 5, 25), price('gpt-5', 1.25, 10)];
const row = (over: Partial<UsageGroupRow>): UsageGroupRow => ({
  key: '',
  agent: 'claude-code',
  model: 'claude-opus-4-5-20251101',
  tokens: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 },
  reportedTokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  reportedUsd: 0,
  replies: 1,
  ...over,
});

describe('pricing', () => {
  it('the longest matching pattern wins; an exact name matches itself only', () => {
    expect(priceFor(PRICES, 'claude-opus-4-5-20251101')?.pattern).toBe('claude-opus-4-5*');
    expect(priceFor(PRICES, 'claude-opus-4-1-20250805')?.pattern).toBe('claude-opus-4*');
    expect(priceFor(PRICES, 'GPT-5')?.pattern).toBe('gpt-5');
    expect(priceFor(PRICES, 'gpt-5-mini')).toBeNull();
    expect(priceFor(PRICES, null)).toBeNull();
  });

  it('a figure keeps priced, reported, unknown and subscription parts apart', () => {
    const context = { prices: PRICES, subscriptionAgents: new Set(['codex']) };
    const figure = figureOf(
      [
        row({}),
        row({ model: 'unheard-of', tokens: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0 } }),
        row({ tokens: { input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, reportedTokens: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, reportedUsd: 0.5 }),
        row({ agent: 'codex', model: 'gpt-5', tokens: { input: 7, output: 0, cacheRead: 0, cacheWrite: 0 } }),
      ],
      context,
    );
    expect(figure.pricedUsd).toBeCloseTo(10, 10);
    expect(figure.reportedUsd).toBe(0.5);
    expect(figure.usd).toBeCloseTo(10.5, 10);
    expect(figure.unknownModelTokens).toBe(10);
    expect(figure.subscriptionTokens).toBe(7);
    expect(figure.bases).toEqual(['priced', 'reported', 'model-unknown', 'subscription']);
    expect(describeCost(figure)).toBe('$10.50 priced (prices of 2026-03-21), reported by the agent, 10 tokens of an unknown model, 7 tokens on a subscription');
  });

  it('no costed part: no dollars, and the words say why', () => {
    const figure = figureOf([row({ model: null })], { prices: PRICES, subscriptionAgents: new Set() });
    expect(figure.usd).toBeNull();
    expect(describeCost(figure)).toBe('1.00M tokens of an unknown model');
    expect(describeCost(figureOf([], { prices: PRICES, subscriptionAgents: new Set() }))).toBe('no tokens recorded');
  });

  it('formats and patterns', () => {
    expect(formatUsd(0.0014)).toBe('$0.0014');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(45_600)).toBe('46k');
    expect(formatTokens(862_000)).toBe('862k');
    expect(formatTokens(4_500_000)).toBe('4.50M');
    expect(formatTokens(45_600_000)).toBe('45.6M');
    expect(formatTokens(456_000_000)).toBe('456M');
  });

  it('formatTokens: a count of a billion or more reads in B and T, never "234871.7M"; a count rounded up takes the next unit', () => {
    expect(formatTokens(234_871_700_000)).toBe('235B');
    expect(formatTokens(1_234_000_000)).toBe('1.23B');
    expect(formatTokens(3_100_000_000_000)).toBe('3.10T');
    expect(formatTokens(999_999)).toBe('1.00M');
    expect(formatTokens(999_999_999)).toBe('1.00B');
    for (let count = 1000; count < 1e15; count = Math.floor(count * 1.37)) expect(formatTokens(count).replace(/[^0-9]/g, '').length).toBeLessThanOrEqual(4);
    expect(isValidPattern('claude-*')).toBe(true);
    expect(isValidPattern('a*b')).toBe(false);
    expect(isValidPattern('a b')).toBe(false);
  });
});
