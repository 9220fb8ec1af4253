/**
 * Reading the demo's graph as a new user would (issue 11): cards say what each step is, a failed call is
 * marked on its own card, a result names its call, recording noise is hidden until asked for, and the kind
 * filters in the graph's toolbar take lines away and give them back. Light and dark screenshots.
 */
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';

test('the demo graph reads without clicking: failed calls, named results, hidden noise, kind filters', async ({ page, arbor }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  const app = new ArborApp(page);
  await app.open(arbor.url);
  await expect(app.firstRun.offer).toBeVisible({ timeout: 20_000 });
  await app.firstRun.createButton.click();
  await expect(app.sessions.rows).toHaveCount(1, { timeout: 30_000 });
  await app.graph.waitForNodes();

  // Noise is hidden by default: no hook or progress line is drawn, their steps carry a "+N".
  await expect(app.graph.nodesOfKind('progress')).toHaveCount(0);
  await expect(app.graph.hiddenLines().first()).toBeVisible();
  // A prompt's card shows its words, well past the ~22 characters a one-line card showed.
  await expect(app.graph.nodesOfKind('user').first().getByTestId('card-text')).toContainText('Add a --top N option to tally so it prints');
  await app.screenshot('graph-reading-01-cards-light');

  // The failed Edit: its result card names the call; the folded steps holding the call say one failed.
  const errorResult = app.graph.nodesOfKind('error').first();
  await expect(app.graph.cardTitle(errorResult)).toHaveText(/^← Edit /);
  const group = app.graph.failed().and(page.locator('[data-kind="steps"]')).first();
  await expect(group).toBeVisible();
  await group.click();
  const call = app.graph.failed().and(app.graph.nodesOfKind('tool_call')).first();
  await expect(call).toBeVisible();
  await expect(call.getByTestId('failed-mark')).toHaveText('failed');
  await expect(app.graph.cardTitle(call)).toHaveText('Edit');
  // Every result card in view names a call.
  const result = app.graph.nodesOfKind('tool_result').first();
  await expect(app.graph.cardTitle(result)).toHaveText(/^← \S/);
  await app.screenshot('graph-reading-02-failed-call');

  // On demand: one step's "+N" opens its hidden lines; "Show all lines" opens them all.
  const progressBefore = await app.graph.nodesOfKind('progress').count();
  expect(progressBefore).toBe(0);
  const chip = call.getByTestId('hidden-lines');
  await expect(chip).toBeVisible();
  await chip.click();
  await expect(app.graph.nodesOfKind('progress').first()).toBeVisible();
  await expect(call).not.toHaveAttribute('data-selected', 'true');
  await app.graph.showAllLines().click();
  await expect(app.graph.showAllLines()).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => app.graph.nodesOfKind('progress').count()).toBeGreaterThan(1);
  await app.screenshot('graph-reading-03-all-lines');
  await app.graph.showAllLines().click();
  await expect(app.graph.nodesOfKind('progress')).toHaveCount(0);

  // Kind filters: thinking lines go and come back.
  await expect(app.graph.nodesOfKind('thinking').first()).toBeVisible();
  await app.graph.kindFilter('thinking').click();
  await expect(app.graph.kindFilter('thinking')).toHaveAttribute('aria-pressed', 'false');
  await expect(app.graph.nodesOfKind('thinking')).toHaveCount(0);
  await app.screenshot('graph-reading-04-no-thinking');
  await app.graph.kindFilter('thinking').click();
  await expect(app.graph.nodesOfKind('thinking').first()).toBeVisible();

  // The rewind's branch point and its two lanes, in dark mode too.
  await app.search.search('skip the colors');
  const prompt = await app.search.choose(app.search.hits.first());
  await expect(app.graph.node(prompt.nodeId)).toHaveAttribute('data-selected', 'true');
  await expect(app.graph.branchBadges.first()).toHaveText('2 branches');
  await app.screenshot('graph-reading-05-branch-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('graph-reading-06-branch-dark');
  await app.graph.fitView();
  // The zoom controls follow the theme, hovered too (the just-clicked Fit was a white square in dark mode).
  const fit = app.graph.root.getByRole('button', { name: 'Fit whole session' });
  await fit.hover();
  for (const button of [fit, app.graph.root.getByRole('button', { name: 'Zoom in' })]) {
    const { background, text } = await button.evaluate((element) => ({ background: getComputedStyle(element).backgroundColor, text: getComputedStyle(element).color }));
    expect(luminance(background)).toBeLessThan(0.2);
    expect(luminance(text)).toBeGreaterThan(0.5);
  }
  await app.screenshot('graph-reading-07-whole-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await fit.hover();
  expect(luminance(await fit.evaluate((element) => getComputedStyle(element).backgroundColor))).toBeGreaterThan(0.8);
  await app.screenshot('graph-reading-08-whole-light');
  await page.emulateMedia({ colorScheme: 'light' });
  await app.expectNoError();
});

/** Relative luminance (0 black … 1 white) of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
