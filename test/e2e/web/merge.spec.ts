/**
 * The merge of two agent branches in Chromium against `arbor serve`: the demo forked twice from the same
 * prompt, the README changed differently in each fork's folder, then Merge…: the view shows the conflicts,
 * the user resolves them hunk by hunk, applies (the merged file is on disk, the merge node in the graph)
 * and undoes it (the file is back byte for byte).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { MergeViewPage } from '../pages/merge-view';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });

/** The demo prompt before the README edit (electron/demo/demo-script.ts): both forks start there. */
const DOCUMENT_PROMPT = 'Document --top and --json in the README.';

async function selectPrompt(app: ArborApp, text: string): Promise<void> {
  await app.search.search(text);
  const target = await app.search.choose(app.search.hits.filter({ hasText: text }).first());
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
}

/** Forks the demo at the prompt through the fork dialog; returns the new branch's node and folder. */
async function forkAtPrompt(app: ArborApp, travel: TimeTravel): Promise<{ node: string; dir: string }> {
  await selectPrompt(app, DOCUMENT_PROMPT);
  await travel.forkButton.click();
  await travel.fork.create.click();
  await expect(travel.fork.created).toBeVisible({ timeout: 30_000 });
  const dir = (await travel.fork.dir.textContent()) ?? '';
  await travel.fork.close();
  const branch = app.graph.selected();
  await expect(branch).toHaveAttribute('data-workspace-kind', 'fork');
  return { node: (await branch.getAttribute('data-node-id')) ?? '', dir };
}

/** A fork folder's name as the merge view's titles show it: date first, so a long one keeps its start and end. */
function shownFolder(dir: string): string {
  const name = basename(dir);
  return name.length <= 20 ? name : `${name.slice(0, 9)}…${name.slice(-9)}`;
}

/** Serious and critical axe violations inside the merge view, one line each. */
async function mergeViewViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="merge-view"]').analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}

/** How far each editor of the merge view overflows sideways (0: no horizontal scrollbar). */
async function sidewaysOverflow(merge: MergeViewPage): Promise<number[]> {
  return merge.scrollers().evaluateAll((scrollers) => scrollers.map((s) => Math.max(0, s.scrollWidth - s.clientWidth)));
}

/** Replaces whole lines (by index) of a file. */
function editLines(file: string, edits: Readonly<Record<number, string>>): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [index, text] of Object.entries(edits)) lines[Number(index)] = text;
  writeFileSync(file, lines.join('\n'));
}

test('merge two forks: resolve the conflicts hunk by hunk, apply, see the merge node, undo', async ({ page, arbor }) => {
  // Two forks, a merge and an undo, each a journaled operation on disk.
  test.setTimeout(120_000);
  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  const merge = new MergeViewPage(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();

  const ours = await forkAtPrompt(app, travel);
  const theirs = await forkAtPrompt(app, travel);
  expect(ours.dir).not.toBe(theirs.dir);

  // The same README, changed differently on each branch: its title (line 0) and its usage line (line 8).
  const oursReadme = join(ours.dir, 'README.md');
  const original = readFileSync(oursReadme, 'utf8');
  expect(original.split('\n')[8]).toBe('node dist/index.js notes.txt');
  editLines(oursReadme, { 0: '# tally, the word counter', 8: 'node dist/index.js --top 5 notes.txt' });
  editLines(join(theirs.dir, 'README.md'), { 0: '# tally: count words', 8: 'node dist/index.js --json notes.txt' });
  writeFileSync(join(theirs.dir, 'NOTES.md'), 'Ideas from the second branch.\n');
  const before = readFileSync(oursReadme);

  // Ours is selected, theirs Shift+clicked: the compare bar offers Merge…
  await app.graph.select(app.graph.node(ours.node));
  await travel.compareWith(app.graph.node(theirs.node));
  await expect(merge.openButton).toBeVisible();
  await app.screenshot('merge-01-two-branches');
  await merge.open();
  await expect(merge.into).toHaveAttribute('title', ours.dir);
  await expect(merge.fileRow('README.md')).toHaveAttribute('data-status', 'conflicted');
  await expect(merge.fileRow('NOTES.md')).toHaveAttribute('data-status', 'added');
  await expect(merge.openFile).toHaveAttribute('data-path', 'README.md');
  await expect(merge.hunkBars).toHaveCount(2);
  await expect(merge.conflictsLeft).toHaveAttribute('data-count', '2');
  await expect(merge.pane('ours')).toContainText('--top 5');
  await expect(merge.pane('theirs')).toContainText('--json notes.txt');
  await expect(merge.result).toContainText('<<<<<<< ours');
  await expect(merge.apply).toBeDisabled();

  // Each version says what it is: two fork folders as they are now (never alike), their common ancestor.
  await expect(merge.title('ours')).toContainText(`Folder ${shownFolder(ours.dir)} — current contents`);
  await expect(merge.title('theirs')).toContainText(`Folder ${shownFolder(theirs.dir)} — current contents`);
  expect((await merge.title('ours').getAttribute('title'))?.split('\n')[0]).toBe(ours.dir);
  expect(await merge.title('ours').textContent()).not.toBe(await merge.title('theirs').textContent());
  await expect(merge.title('base')).toContainText('Common ancestor · node');
  await expect(merge.title('result')).toContainText(`Into folder ${shownFolder(ours.dir)}`);
  await expect(page.getByRole('region', { name: new RegExp(`^Ours\\s*:\\s*Folder ${shownFolder(ours.dir)} — current contents$`) })).toBeVisible();

  // The changed words within the changed lines: in each side's pane and in the conflict hunks of the result.
  await expect(merge.changedWords(merge.pane('ours'), 'ours').filter({ hasText: '--top' })).toHaveText(['--top 5']);
  await expect(merge.changedWords(merge.pane('theirs'), 'theirs').filter({ hasText: '--json' })).toHaveText(['--json']);
  await expect(merge.changedWords(merge.result, 'theirs').filter({ hasText: '--json' })).toHaveText(['--json']);
  await expect(merge.changedWords(merge.result, 'ours').filter({ hasText: '--top' })).toHaveText(['--top 5']);
  await app.screenshot('merge-02-conflicts');
  expect(await mergeViewViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('merge-02-conflicts-dark');
  expect(await mergeViewViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });

  // Wrap: long lines fold inside every pane instead of scrolling sideways, and the choice survives a reload.
  await expect(merge.wrapButton).toHaveAttribute('aria-pressed', 'false');
  expect(Math.max(...(await sidewaysOverflow(merge)))).toBeGreaterThan(0);
  await merge.wrapButton.click();
  await expect(merge.wrapButton).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => sidewaysOverflow(merge)).toEqual([0, 0, 0, 0]);
  await app.screenshot('merge-02-wrapped');
  await page.keyboard.press('Alt+z');
  await expect(merge.wrapButton).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Alt+z');
  await expect(merge.wrapButton).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await app.graph.waitForNodes();
  await app.graph.select(app.graph.node(ours.node));
  await travel.compareWith(app.graph.node(theirs.node));
  await merge.open();
  await expect(merge.openFile).toHaveAttribute('data-path', 'README.md');
  await expect(merge.hunkBars).toHaveCount(2);
  await expect(merge.wrapButton).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => sidewaysOverflow(merge)).toEqual([0, 0, 0, 0]);

  // Hunk by hunk: ours' title, theirs' usage line.
  await merge.takeHunk(0, 'ours');
  await expect(merge.fileConflictsLeft).toHaveText('1 conflict left');
  await expect(merge.apply).toBeDisabled();
  await app.screenshot('merge-03-first-hunk');
  await merge.takeHunk(1, 'theirs');
  await expect(merge.fileConflictsLeft).toContainText('All conflicts resolved');
  await expect(merge.fileRow('README.md')).toHaveAttribute('data-settled', 'true');
  await expect(merge.conflictsLeft).toHaveAttribute('data-count', '0');
  await expect(merge.result).not.toContainText('<<<<<<<');
  await app.screenshot('merge-04-resolved');
  await merge.showFile('NOTES.md');
  await expect(merge.result).toContainText('Ideas from the second branch.');
  expect(readFileSync(oursReadme).equals(before)).toBe(true); // nothing written before Apply

  await merge.apply.click();
  await expect(merge.outcome).toBeVisible({ timeout: 30_000 });
  const expected = original.split('\n');
  expected[0] = '# tally, the word counter';
  expected[8] = 'node dist/index.js --json notes.txt';
  expect(readFileSync(oursReadme, 'utf8')).toBe(expected.join('\n'));
  expect(readFileSync(join(ours.dir, 'NOTES.md'), 'utf8')).toBe('Ideas from the second branch.\n');
  await expect(merge.written).toContainText('README.md');
  const mergeNode = (await merge.mergeNodeId.textContent()) ?? '';
  await expect(app.graph.node(mergeNode)).toBeVisible({ timeout: 20_000 });
  await expect(app.graph.node(mergeNode)).toHaveAttribute('data-selected', 'true');
  await app.screenshot('merge-05-applied');

  await merge.undo.click();
  await expect(merge.undone).toBeVisible({ timeout: 30_000 });
  expect(readFileSync(oursReadme).equals(before)).toBe(true);
  expect(existsSync(join(ours.dir, 'NOTES.md'))).toBe(false);
  await app.screenshot('merge-06-undone');
  await merge.done.click();
  await expect(merge.root).toHaveCount(0);
  await app.expectNoError();
});
