/**
 * Tokens and cost (issue 15) on the demo session: the session header says its cost and how it is known, a
 * branch point's badge shows each branch's cost beside its sibling's, and the Statistics view (opened from the
 * header and the palette) draws bars per day and per model and lists the top sessions. Light and dark, axe.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { CommandPalette } from '../pages/palette';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the session's cost, each branch's cost and the Statistics view (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1400, height: 900 });
    const app = new ArborApp(page);
    await app.open(arbor.url);
    await app.graph.waitForNodes();

    // The demo's replies are priced from the shipped table.
    const cost = page.getByTestId('session-cost');
    await expect(cost).toHaveText(/^\$\d+\.\d+ · [\d.]+[kM]? tokens$/);
    await expect(cost).toHaveAttribute('title', /priced \(prices of \d{4}-\d{2}-\d{2}\)/);

    // The demo's rewind: the user went back after the first turn; its branch point comes into view with it.
    await app.search.search('skip the colors');
    await app.search.choose(app.search.hits.first());
    const badge = app.graph.branchBadges.first();
    await expect(badge).toBeVisible();
    await badge.hover();
    const tip = page.getByTestId('branch-cost-tip');
    await expect(tip).toBeVisible();
    await expect(tip.getByText(/^branch 1: \$/)).toBeVisible();
    await expect(tip.getByText(/^branch 2: \$/)).toBeVisible();
    await app.screenshot(`statistics-01-branch-cost-${scheme}`);
    await page.mouse.move(5, 5);

    await page.getByTestId('open-statistics').click();
    const region = page.getByRole('region', { name: 'Statistics' });
    await expect(region).toBeVisible();
    await expect(region.getByRole('img', { name: /^Cost per day: \d{4}-\d{2}-\d{2}: \$/ })).toBeVisible();
    await expect(region.getByRole('img', { name: /^Cost per model: claude-/ })).toBeVisible();
    await expect(region.getByTestId('stats-top-sessions')).toContainText('$');
    await expect(region.getByTestId('stats-total')).toContainText('prices of');
    await app.screenshot(`statistics-02-view-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
    // A long model name cut at 24 characters by count ran past the chart's left edge ("laude-sonnet-4-5-20250…").
    const labels = await region.locator('.stats-bar__label').evaluateAll((texts) =>
      texts.map((text) => ({ text: text.textContent ?? '', left: (text as SVGTextElement).getBBox().x })),
    );
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.filter((label) => label.left < 0)).toEqual([]);

    await region.getByTestId('stats-metric').selectOption('tokens');
    await expect(region.getByRole('img', { name: /^Tokens per day: / })).toBeVisible();
    await region.getByText('Prices and plans').click();
    await expect(region.getByRole('cell', { name: 'claude-opus-4-6*' })).toBeVisible();
    await app.screenshot(`statistics-03-prices-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(region).toBeHidden();

    const palette = new CommandPalette(page);
    await palette.open();
    await palette.input.fill('statistics');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Statistics' })).toBeVisible();
  });
}
