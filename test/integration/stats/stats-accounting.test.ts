/**
 * Tokens and cost against hand-counted fixtures (usage-fixtures.ts), through the real service: a reply split
 * over several lines counted once, a fork's copied prefix counted once, Codex token counts, an unknown model,
 * a reported cost, and an agent on a subscription plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from '../service/service-harness';
import { APP, EXPECTED, OTHER, SESSION_A, SESSION_B, SESSION_C, SESSION_D, writeUsageFixtures, type UsageFixtures } from './usage-fixtures';

let h: Harness;
let fixtures: UsageFixtures;
beforeAll(async () => {
  h = await openHarness();
  fixtures = await writeUsageFixtures(h.root);
  const report = await h.service.api['import.run']({ paths: [...fixtures.paths] });
  expect(report.problems).toEqual([]);
});
afterAll(async () => {
  await h.dispose();
});

const session = (sessionId: string) => h.service.api['stats.session']({ sessionId });

describe('tokens and cost', () => {
  it('a reply written over three content-block lines is counted once', async () => {
    const { total } = await session(SESSION_A);
    expect(total.tokens).toEqual(EXPECTED.a);
    expect(total.replies).toBe(2);
    expect(total.bases).toEqual(['priced']);
    expect(total.usd).toBeCloseTo(EXPECTED.aUsd, 12);
    expect(total.priceDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("a fork's copied prefix counts in its source, not again in the fork", async () => {
    const { total } = await session(SESSION_B);
    expect(total.tokens).toEqual(EXPECTED.b);
    expect(total.usd).toBeCloseTo(EXPECTED.bUsd, 12);
    const all = await h.service.api['stats.get']({ by: 'project' });
    const app = all.rows.find((row) => row.key === APP)!;
    expect(app.tokens.output).toBe(EXPECTED.a.output + EXPECTED.b.output + EXPECTED.d.output);
  });

  it("each branch's cost runs root → head, so two attempts from one point compare", async () => {
    const { branches } = await h.service.api['stats.branches']({ headIds: [fixtures.headA, fixtures.headB] });
    const [a, b] = branches;
    expect(a!.total.tokens).toEqual(EXPECTED.a);
    expect(b!.total.tokens).toEqual({ input: 111, output: 37, cacheRead: 1200, cacheWrite: 50 });
    expect(b!.total.usd).toBeCloseTo(EXPECTED.aUsd + EXPECTED.bUsd, 12);
  });

  it('Codex replies are counted from their token_count, cached input apart', async () => {
    const { total } = await session(SESSION_D);
    expect(total.tokens).toEqual(EXPECTED.d);
    expect(total.replies).toBe(2);
    expect(total.usd).toBeCloseTo(EXPECTED.dUsd, 12);
    expect(total.models).toEqual(['gpt-5.1-codex']);
  });

  it('an unknown model says so, and a reported cost is the agent\'s own', async () => {
    const { total } = await session(SESSION_C);
    expect(total.tokens).toEqual(EXPECTED.c);
    expect(total.bases).toEqual(['reported', 'model-unknown']);
    expect(total.unknownModelTokens).toBe(EXPECTED.cUnknownTokens);
    expect(total.usd).toBeCloseTo(EXPECTED.cReportedUsd, 12);
  });

  it('groups by day, model and agent, and filters by project, agent and dates', async () => {
    const byDay = await h.service.api['stats.get']({ by: 'day' });
    expect(byDay.rows.map((row) => row.key)).toEqual(['2026-11-01', '2026-11-02', '2026-11-30']);
    const byModel = await h.service.api['stats.get']({ by: 'model' });
    expect(byModel.rows.find((row) => row.key === 'mystery-model-1')?.bases).toEqual(['model-unknown']);
    const byAgent = await h.service.api['stats.get']({ by: 'agent' });
    expect(byAgent.rows.map((row) => row.key).sort()).toEqual(['claude-code', 'codex']);
    const other = await h.service.api['stats.get']({ filters: { project: OTHER } });
    expect(other.total.tokens).toEqual(EXPECTED.c);
    const codexOnly = await h.service.api['stats.get']({ filters: { agent: 'codex' } });
    expect(codexOnly.total.tokens).toEqual(EXPECTED.d);
    const firstDay = await h.service.api['stats.get']({ filters: { from: '2026-11-01', to: '2026-11-01' } });
    expect(firstDay.total.tokens).toEqual(EXPECTED.a);
    expect(byDay.topSessions[0]!.sessionId).toBe(SESSION_C);
    expect(byDay.projects).toEqual(expect.arrayContaining([APP, OTHER]));
  });

  it('an agent on a subscription plan has tokens and no per-token cost', async () => {
    await h.service.api['prices.setPlan']({ agent: 'claude-code', subscription: true });
    try {
      const { total } = await session(SESSION_A);
      expect(total.tokens).toEqual(EXPECTED.a);
      expect(total.bases).toEqual(['subscription']);
      expect(total.usd).toBeNull();
      expect(total.subscriptionTokens).toBe(110 + 35 + 1200 + 50);
    } finally {
      await h.service.api['prices.setPlan']({ agent: 'claude-code', subscription: false });
    }
  });

  it('a re-import of the same files adds nothing', async () => {
    await h.service.api['import.run']({ paths: [...fixtures.paths] });
    const { total } = await h.service.api['stats.get']({});
    const expected = [EXPECTED.a, EXPECTED.b, EXPECTED.c, EXPECTED.d].reduce((sum, t) => sum + t.input + t.output + t.cacheRead + t.cacheWrite, 0);
    expect(total.tokens.input + total.tokens.output + total.tokens.cacheRead + total.tokens.cacheWrite).toBe(expected);
  });
});
