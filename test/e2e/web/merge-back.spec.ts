/**
 * "Continue from the merge" in Chromium against `arbor serve`: the demo's abandoned colors turn (ours) merged
 * with the main line (theirs), applied, then continued: the resume command with its copy button, the new
 * branch below the merge node with its merge-summary node (its own look, in the graph and the conversation),
 * and the session still in the list. Screenshots light and dark; axe on the merge result and the conversation.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeProjectDir } from '../../../electron/forks/claude-projects';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { ConversationPane } from '../pages/conversation';
import { MergeViewPage } from '../pages/merge-view';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });

/** Serious and critical axe violations inside `selector`, one line each. */
async function violations(page: Page, selector: string): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).include(selector).analyze();
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}

async function nodeWithText(app: ArborApp, text: string): Promise<Locator> {
  await app.search.search(text);
  const target = await app.search.choose(app.search.hits.filter({ hasText: text }).first());
  const node = app.graph.node(target.nodeId);
  await expect(node).toHaveAttribute('data-selected', 'true');
  return node;
}

test('continue from a merge: the resume command, the new branch and its merge-summary node', async ({ page, arbor }) => {
  test.setTimeout(120_000);
  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  const merge = new MergeViewPage(page);
  const conversation = new ConversationPane(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();

  // Theirs: a reply of the main line after the rewind; ours: the abandoned colors turn, selected last.
  const theirs = await nodeWithText(app, 'Adding a JSON formatter');
  await nodeWithText(app, 'printed in green');
  await travel.compareWith(theirs);
  await merge.open();
  await expect(merge.conflictsLeft).toHaveAttribute('data-count', '0');
  await merge.apply.click();
  await expect(merge.outcome).toBeVisible({ timeout: 30_000 });
  const mergeNode = (await merge.mergeNodeId.textContent()) ?? '';
  await expect(app.graph.node(mergeNode)).toBeVisible({ timeout: 20_000 });

  // Continue from the merge: the command to resume, as the fork dialog shows it, with a copy button.
  const continueButton = page.getByRole('button', { name: 'Continue from the merge' });
  await expect(continueButton).toBeEnabled();
  await continueButton.focus();
  await page.keyboard.press('Enter');
  const resume = page.getByTestId('merge-resume');
  await expect(resume).toBeVisible({ timeout: 30_000 });
  await expect(resume).toHaveText(/^cd \S+ && claude --resume [0-9a-f-]{36}$/);
  await expect(page.getByTestId('merge-continued').getByRole('button', { name: /copy/i })).toBeVisible();
  const [, mergedDir, sessionFile] = /^cd (\S+) && claude --resume ([0-9a-f-]{36})$/.exec((await resume.textContent()) ?? '')!;
  await app.screenshot('merge-back-01-resume-command');
  expect(await violations(page, '[data-testid="merge-outcome"]')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('merge-back-01-resume-command-dark');
  expect(await violations(page, '[data-testid="merge-outcome"]')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });

  // The transcript is where `claude --resume` looks, under the merged folder's project.
  expect(mergedDir).toBe(join(arbor.demo!.dir, 'workspace'));
  const transcript = readFileSync(join(arbor.dataDir, 'home', '.claude', 'projects', encodeProjectDir(mergedDir!), `${sessionFile}.jsonl`), 'utf8');
  expect(transcript.match(/<arbor-merge-summary version=\\"1\\">/g)).toHaveLength(1);
  await merge.done.click();
  await expect(merge.root).toHaveCount(0);

  // The graph selected the merge-summary node, on the new branch below the merge node.
  const summary = app.graph.selected();
  await expect(summary).toHaveAttribute('data-kind', 'merge-summary', { timeout: 20_000 });
  await expect(summary).toContainText('Merge summary');
  await expect(app.graph.nodesOfKind('merge-summary')).toHaveCount(1);
  await expect(app.inspector.kind).toHaveAttribute('data-kind', 'merge-summary');
  // Shown as such in the conversation: a divider of its own, not a prompt.
  await conversation.setMode('Both');
  const summaryId = (await summary.getAttribute('data-node-id')) ?? '';
  const row = conversation.row(summaryId);
  await expect(row).toHaveAttribute('data-kind', 'merge-summary');
  await expect(row.getByTestId('conversation-merge-summary')).toContainText('Merge summary of the other branch');
  // The session is still in the list, its title its own.
  const listed = app.sessions.row(arbor.demo!.sessionId);
  await expect(listed).toBeVisible();
  await expect(listed).not.toContainText('arbor-merge-summary');
  await app.screenshot('merge-back-02-summary-node');
  expect(await violations(page, '[data-testid="graph"]')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('merge-back-02-summary-node-dark');
  expect(await violations(page, '[data-testid="graph"]')).toEqual([]);
  await app.expectNoError();
});

