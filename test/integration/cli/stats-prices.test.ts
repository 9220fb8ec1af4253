/** `arbor stats` and `arbor prices` (issue 15) on the hand-counted fixtures, plain and --json. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsAnswer } from '../../../shared/contract';
import type { ModelPrice } from '../../../shared/usage';
import { EXPECTED, SESSION_A, SESSION_C, writeUsageFixtures } from '../stats/usage-fixtures';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
const cli = (args: string[]): Promise<Run> => runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home') });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-stats-cli-'));
  const fixtures = await writeUsageFixtures(root);
  const run = await cli(['import', ...fixtures.paths]);
  expect(run.code, run.stderr).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor stats', () => {
  it('--json gives the grouped figures with how each cost is known', async () => {
    const run = await cli(['stats', '--by', 'model', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout) as StatsAnswer;
    expect(stats.by).toBe('model');
    expect(stats.rows.map((row) => row.key)).toEqual(['claude-sonnet-4-5-20250929', 'gpt-5.1-codex', 'mystery-model-1']);
    expect(stats.rows.find((row) => row.key === 'mystery-model-1')?.bases).toEqual(['model-unknown']);
    expect(stats.total.reportedUsd).toBe(EXPECTED.cReportedUsd);
  });

  it('plain output prints a table per day, the total in words, and the top sessions', async () => {
    const run = await cli(['stats']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Total: .* tokens in 7 replies; \$0\.25\d* priced \(prices of \d{4}-\d{2}-\d{2}\), reported by the agent, 10 tokens of an unknown model/);
    expect(run.stdout).toContain('2026-11-01');
    expect(run.stdout).toContain('Top sessions:');
    expect(run.stdout).toContain(SESSION_C.slice(0, 8));
  });

  it('SESSION (a prefix) prints only that session', async () => {
    const run = await cli(['stats', SESSION_A.slice(0, 6), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout) as StatsAnswer;
    expect(stats.total.tokens).toEqual(EXPECTED.a);
    expect(stats.total.usd).toBeCloseTo(EXPECTED.aUsd, 12);
  });

  it('a bad --by is a usage error (exit 2)', async () => {
    expect((await cli(['stats', '--by', 'week'])).code).toBe(2);
  });
});

describe('arbor prices', () => {
  it('set, list, and reset; a subscription plan takes the cost off its agent', async () => {
    const set = await cli(['prices', 'set', 'mystery-model-1', '--input', '1', '--output', '2', '--json']);
    expect(set.code, set.stderr).toBe(0);
    const { prices } = JSON.parse(set.stdout) as { prices: ModelPrice[] };
    expect(prices.find((price) => price.pattern === 'mystery-model-1')).toMatchObject({ input: 1, output: 2, cacheRead: 0, cacheWrite: 0, origin: 'user' });
    const priced = JSON.parse((await cli(['stats', SESSION_C, '--json'])).stdout) as StatsAnswer;
    expect(priced.total.bases).toEqual(['priced', 'reported']);
    expect(priced.total.usd).toBeCloseTo(EXPECTED.cReportedUsd + (7 * 1 + 3 * 2) / 1e6, 12);

    const plain = await cli(['prices']);
    expect(plain.stdout).toMatch(/^model\s+input\s+output\s+cache read\s+cache write\s+since\s+set by$/m);
    expect(plain.stdout).toMatch(/^mystery-model-1\s+\$1\s+\$2\s+\$0\s+\$0\s+\d{4}-\d{2}-\d{2}\s+user$/m);

    expect((await cli(['prices', 'plan', 'claude-code', 'subscription'])).code).toBe(0);
    const subscribed = JSON.parse((await cli(['stats', SESSION_A, '--json'])).stdout) as StatsAnswer;
    expect(subscribed.total.bases).toEqual(['subscription']);
    expect((await cli(['prices', 'plan', 'claude-code', 'api'])).code).toBe(0);

    const reset = await cli(['prices', 'reset', '--json']);
    expect((JSON.parse(reset.stdout) as { prices: ModelPrice[] }).prices.some((price) => price.pattern === 'mystery-model-1')).toBe(false);
  });

  it('a negative or non-numeric price is refused and nothing changes', async () => {
    const negative = await cli(['prices', 'set', 'x-model', '--input=-1', '--output', '2']);
    expect(negative.stderr).toMatch(/input/);
    expect(negative.code).toBe(1);
    expect((await cli(['prices', 'set', 'x-model', '--input', 'cheap', '--output', '2'])).code).toBe(2);
    const listed = JSON.parse((await cli(['prices', '--json'])).stdout) as { prices: ModelPrice[] };
    expect(listed.prices.some((price) => price.pattern === 'x-model')).toBe(false);
  });
});
