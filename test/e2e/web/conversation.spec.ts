/**
 * Reading the demo in the conversation view (Chromium against `arbor serve`): the selected branch as a
 * transcript beside the graph, thinking opened when its node is selected, an Edit as a diff, the failed
 * Edit and the unanswered `npm publish` marked, switching branch at the rewind, j/k moving the selection
 * with the graph following, and the full-width mode, in light and dark.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { ConversationPane } from '../pages/conversation';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

/** The demo's words (electron/demo/demo-script.ts). */
const FIRST_PROMPT = 'Add a --top N option to tally';
const COLORS_PROMPT = 'Make the output colorful';
const JSON_PROMPT = 'Actually, skip the colors';

async function selectBySearch(app: ArborApp, text: string, hasText: RegExp | string = text): Promise<string> {
  await app.search.search(text);
  const target = await app.search.choose(app.search.hits.filter({ hasText }).first());
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
  return target.nodeId;
}

test('read the demo as a conversation: thinking, an Edit as a diff, a failed call, a call with no result, a branch switch', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const conversation = new ConversationPane(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();

  // At 1400 px the pane is too narrow for both by default; the user asks for the conversation beside the graph.
  await expect(conversation.region).toHaveCount(0);
  await conversation.setMode('Both');
  // The session opens at its first prompt, beside the graph.
  await expect(conversation.region).toBeVisible();
  await expect(conversation.selectedRow).toContainText(FIRST_PROMPT);
  await expect(conversation.rows.filter({ hasText: FIRST_PROMPT })).toHaveAttribute('data-kind', 'user');
  await app.screenshot('conversation-01-beside-graph');
  // Beside the conversation the graph is narrow: its toolbar's chips were scrolled out of reach; they wrap.
  const graphBox = (await page.getByTestId('graph').boundingBox())!;
  for (const filter of ['prompts', 'replies', 'thinking', 'tools', 'errors', 'system'] as const) {
    const chip = (await app.graph.kindFilter(filter).boundingBox())!;
    expect(chip.x + chip.width, `${filter} chip inside the graph`).toBeLessThanOrEqual(graphBox.x + graphBox.width);
  }
  const showAll = (await app.graph.showAllLines().boundingBox())!;
  expect(showAll.x + showAll.width).toBeLessThanOrEqual(graphBox.x + graphBox.width);
  // Graph → Both narrowed the pane from its right edge and the selected card went under the conversation:
  // the camera keeps the pane's centre.
  const selectedCard = (await page.locator('[data-testid="graph-node"][data-selected="true"]').boundingBox())!;
  expect(selectedCard.x + selectedCard.width).toBeLessThanOrEqual(graphBox.x + graphBox.width);

  // j moves to the next step, the thinking: it opens, and the graph selects the same node.
  await conversation.press('j');
  const thinkingId = await conversation.selectedNodeId();
  await expect(conversation.selectedRow).toHaveAttribute('data-kind', 'thinking');
  await expect(conversation.selectedRow.locator('details.thinking-block')).toHaveAttribute('open', '');
  await expect(conversation.selectedRow).toContainText('counting and argument parsing');
  await expect(app.graph.node(thinkingId)).toHaveAttribute('data-selected', 'true');
  // k goes back; the graph follows again.
  await conversation.press('k');
  const promptId = await conversation.selectedNodeId();
  await expect(app.graph.node(promptId)).toHaveAttribute('data-selected', 'true');
  await expect(conversation.selectedRow).toContainText(FIRST_PROMPT);
  // Enter folds the selected thinking again; selecting it in the graph opens it.
  await conversation.press('j');
  await expect(conversation.selectedRow.locator('details.thinking-block')).toHaveAttribute('open', '');
  await conversation.press('Enter');
  await expect(conversation.row(thinkingId).locator('details.thinking-block')).not.toHaveAttribute('open', '');
  await app.screenshot('conversation-02-thinking');

  // The first Edit: a diff with the added helper, its result not repeated.
  await selectBySearch(app, 'Adding a `topWords` helper', 'topWords');
  const edit = conversation.calls('Edit').first();
  await expect(edit).toBeVisible();
  await expect(edit.getByTestId('conversation-diff')).toBeVisible();
  await expect(edit.locator('.conv-diff__line--added').filter({ hasText: 'export function topWords' })).toHaveCount(1);
  await expect(edit.locator('.conv-diff__line--removed')).toHaveCount(0);
  await expect(edit.getByTestId('tool-outcome')).toHaveText('ok');
  await app.screenshot('conversation-03-edit-diff');

  // The failed Edit right after: red, with the tool's error as text, tags stripped.
  await selectBySearch(app, 'That string is not in the file');
  const failed = conversation.callsWithOutcome('error').first();
  await expect(failed).toBeVisible();
  await expect(failed).toHaveAttribute('data-tool', 'Edit');
  await expect(failed.getByTestId('tool-outcome')).toHaveText('error');
  await expect(failed.getByTestId('conversation-error')).toBeVisible();
  await expect(failed.getByTestId('conversation-error')).not.toContainText('<tool_use_error>');
  expect((await failed.getByTestId('conversation-error').textContent())?.length ?? 0).toBeGreaterThan(10);
  const red = await failed.getByTestId('conversation-error').evaluate((el) => getComputedStyle(el).color);
  expect(red).not.toBe(await page.evaluate(() => getComputedStyle(document.body).color));
  await app.screenshot('conversation-04-failed-call');

  // `npm publish` was interrupted: the call is there, its outcome is not.
  await selectBySearch(app, 'npm publish', /tool call/i);
  const missing = conversation.callsWithOutcome('missing').first();
  await expect(missing).toBeVisible();
  await expect(missing.getByTestId('tool-outcome')).toHaveText('outcome not recorded');
  await expect(missing.getByTestId('conversation-missing')).toContainText('not recorded');
  await app.screenshot('conversation-05-outcome-not-recorded');

  // At the rewind: the --json prompt is branch 2 of 2; ‹ switches in place to the colors branch, and the graph follows.
  const jsonPromptId = await selectBySearch(app, 'skip the colors');
  const jsonRow = conversation.row(jsonPromptId);
  await expect(jsonRow.getByTestId('branch-switch')).toHaveText(/branch 2 of 2/);
  await app.screenshot('conversation-06-branch-point');
  await jsonRow.getByRole('button', { name: 'Previous branch' }).click();
  await expect(conversation.selectedRow).toContainText(COLORS_PROMPT);
  const colorsId = await conversation.selectedNodeId();
  await expect(app.graph.node(colorsId)).toHaveAttribute('data-selected', 'true');
  await expect(conversation.selectedRow.getByTestId('branch-switch')).toHaveText(/branch 1 of 2/);
  await expect(conversation.region).not.toContainText(JSON_PROMPT);
  await expect(conversation.region).toContainText('Counts are now printed in green.');
  await app.screenshot('conversation-07-other-branch');
  // ] goes back to branch 2.
  await conversation.press(']');
  await expect(conversation.selectedRow).toContainText(JSON_PROMPT);
  await expect(app.graph.node(jsonPromptId)).toHaveAttribute('data-selected', 'true');

  // The subagent run is folded under its call; one click opens it.
  const agent = conversation.region.getByTestId('conversation-agent').first();
  await expect(agent).toBeVisible();
  await expect(agent).not.toHaveAttribute('open', '');
  await agent.locator('summary').click();
  await expect(agent).toHaveAttribute('open', '');
  await expect(agent).toContainText('No problems found');

  // Full width: `c` hides the graph, `c` again brings it back.
  await conversation.press('c');
  await expect(app.graph.root).toBeHidden();
  await expect(conversation.region).toBeVisible();
  await app.screenshot('conversation-08-full-width');

  const axe = await new AxeBuilder({ page }).include('[data-testid="conversation"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 6).join(', ')}`)).toEqual([]);

  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('conversation-09-full-width-dark');
  const axeDark = await new AxeBuilder({ page }).include('[data-testid="conversation"]').analyze();
  expect(axeDark.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 6).join(', ')}`)).toEqual([]);
  await conversation.press('c');
  await expect(app.graph.root).toBeVisible();
  await selectBySearch(app, 'That string is not in the file');
  await app.screenshot('conversation-10-beside-graph-dark');
  await app.expectNoError();
});

test('the conversation shows beside the graph on a wide window, and the chosen mode is remembered across a reload', async ({ page, arbor }) => {
  await page.setViewportSize({ width: 1920, height: 1000 });
  const app = new ArborApp(page);
  const conversation = new ConversationPane(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await expect(conversation.region).toBeVisible();
  await expect(conversation.selectedRow).toContainText(FIRST_PROMPT);
  await app.screenshot('conversation-11-wide-window-default');
  await conversation.setMode('Graph');
  await expect(conversation.region).toHaveCount(0);
  await page.reload();
  await app.graph.waitForNodes();
  await expect(conversation.region).toHaveCount(0);
  await conversation.setMode('Conversation');
  await expect(conversation.region).toBeVisible();
  await expect(app.graph.root).toBeHidden();
  await page.reload();
  await expect(conversation.region).toBeVisible();
  await expect(conversation.selectedRow).toContainText(FIRST_PROMPT);
  await expect(app.graph.root).toBeHidden();
});
