/**
 * First run with no sessions anywhere: the app offers the demo instead of an empty window, and the demo
 * session opens with its graph, its rewind branch and the tool call whose outcome was never recorded.
 */
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { OverviewPane } from '../pages/overview';

test('an empty data dir offers the demo, which opens with a branch and an unanswered tool call', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  await app.open(arbor.url);

  await expect(app.firstRun.offer).toBeVisible({ timeout: 20_000 });
  await expect(app.sessions.rows).toHaveCount(0);
  await app.screenshot('demo-01-offer');

  await app.firstRun.createButton.click();
  await expect(app.sessions.rows).toHaveCount(1, { timeout: 30_000 });
  await expect(app.sessions.rows.first()).toHaveAttribute('aria-selected', 'true');
  await app.graph.waitForNodes();
  await expect(page.getByText('Add --top and --json options to tally').first()).toBeVisible();
  await app.screenshot('demo-02-graph');

  // The rewind: the user went back after the first turn and asked for --json instead of colors.
  await app.search.search('skip the colors');
  const prompt = await app.search.choose(app.search.hits.first());
  await expect(app.graph.node(prompt.nodeId)).toHaveAttribute('data-selected', 'true');
  expect(await app.inspector.kindName()).toBe('user');
  await expect(app.graph.branchBadges.first()).toBeVisible();
  await expect(app.graph.branchBadges.first()).toContainText('branch');
  await app.screenshot('demo-03-branch');

  // `npm publish` was interrupted: the call is recorded, its result is not.
  await app.search.search('npm publish');
  const hit = app.search.hits.filter({ hasText: /tool call/i }).first();
  const target = await app.search.choose(hit);
  const node = app.graph.node(target.nodeId);
  await expect(node).toHaveAttribute('data-selected', 'true');
  await expect(node).toContainText('outcome not recorded');
  expect(await app.inspector.kindName()).toBe('tool_call');
  await expect(app.inspector.toolOutcomes.first()).toHaveText('outcome not recorded');
  await app.screenshot('demo-04-outcome-not-recorded');

  // Fit on the demo's ~90 steps lands on readable turn cards, its branch point labelled, not tiny step cards.
  await app.graph.fitView();
  const overview = new OverviewPane(page);
  await expect(overview.root).toBeVisible();
  expect(await overview.zoom()).toBeGreaterThanOrEqual(0.7);
  await expect(overview.labelsOfKind('branch-point').first()).toHaveText(/branches into 2/);
  await app.screenshot('demo-05-whole-graph');
  // The overview's + opens the turn in the middle into its steps, as zooming with the wheel does.
  for (let k = 0; k < 6 && (await overview.root.count()) > 0; k++) await overview.zoomButton('in').click();
  await expect(overview.root).toHaveCount(0);
  await expect(app.graph.nodes.first()).toBeVisible();
  await app.screenshot('demo-06-zoomed-in-from-fit');
  await app.expectNoError();
});
