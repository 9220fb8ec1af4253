/**
 * The price table Arbor ships (dollars per million tokens), written into the store by migration 023 and by
 * `arbor prices reset`. Prices change: these are what the public price lists said when taken, and each row
 * carries that date so every priced figure says how old its price is. Users edit them in the app or with
 * `arbor prices set`.
 *
 * Taken 2026-12-02 from:
 * - Anthropic, "Pricing" (docs.anthropic.com/en/docs/about-claude/pricing): Opus 4 / 4.1 $15 in, $75 out,
 *   5-minute cache writes $18.75, cache hits $1.50; Sonnet 3.7 / 4 $3, $15, $3.75, $0.30; Haiku 3.5 $0.80, $4,
 *   $1, $0.08; Haiku 3 $0.25, $1.25, $0.30, $0.03.
 * - deploybase.ai "Claude API Pricing 2026" (prices as of 2026-03-21): Opus 4.5 / 4.6 $5 in, $25 out;
 *   Sonnet 4.5 / 4.6 $3, $15; Haiku 4.5 $1, $5. Cache rates follow Anthropic's published multipliers
 *   (5-minute write 1.25× input, hit 0.1× input).
 * - OpenAI (GPT-5 family, as listed from developers.openai.com/api/docs/pricing and the GPT-5 Codex model
 *   card): gpt-5 and gpt-5-codex $1.25 in, $10 out, cached input 10% of input ($0.125); gpt-5-mini $0.25, $2,
 *   $0.025. OpenAI bills no cache write.
 * Claude Code's usage has no 1-hour cache split in Arbor's counts, so cache writes use the 5-minute rate.
 */
import type { ModelPrice } from '../../shared/usage';

export const DEFAULT_PRICES_DATE = '2026-12-02';

const row = (pattern: string, input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice => ({
  pattern,
  input,
  output,
  cacheRead,
  cacheWrite,
  effectiveDate: DEFAULT_PRICES_DATE,
  origin: 'default',
});

export const DEFAULT_PRICES: readonly ModelPrice[] = [
  row('claude-opus-4-5*', 5, 25, 0.5, 6.25),
  row('claude-opus-4-6*', 5, 25, 0.5, 6.25),
  row('claude-opus-4-1*', 15, 75, 1.5, 18.75),
  row('claude-opus-4*', 15, 75, 1.5, 18.75),
  row('claude-3-opus*', 15, 75, 1.5, 18.75),
  row('claude-sonnet-4*', 3, 15, 0.3, 3.75),
  row('claude-3-7-sonnet*', 3, 15, 0.3, 3.75),
  row('claude-3-5-sonnet*', 3, 15, 0.3, 3.75),
  row('claude-haiku-4-5*', 1, 5, 0.1, 1.25),
  row('claude-3-5-haiku*', 0.8, 4, 0.08, 1),
  row('claude-3-haiku*', 0.25, 1.25, 0.03, 0.3),
  row('gpt-5-codex*', 1.25, 10, 0.125, 0),
  row('gpt-5-mini*', 0.25, 2, 0.025, 0),
  row('gpt-5*', 1.25, 10, 0.125, 0),
];
