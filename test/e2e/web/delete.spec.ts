/**
 * Delete and Clean up in Chromium against `arbor serve` (issue 15), on the demo session:
 * - a temporary fork made in the fork dialog, its transcript imported as a session that goes on from the demo:
 *   the Delete key on the list opens the confirmation, which lists what goes and refuses until "also delete" is
 *   ticked; then both rows leave the list and search no longer finds the demo's words;
 * - an orphan fork (its folder deleted by hand): Clean up, from the palette, lists it ticked and removes it.
 * Light and dark screenshots; axe finds no serious violation in either dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { openDatabase } from '../../../electron/db/database';
import { forkExpiry } from '../../../electron/db/store-gc-records';
import type { ForkCreated, ForkSummary } from '../../../shared/operations';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { CleanUpDialog, DeleteDialog } from '../pages/forget';
import { CommandPalette } from '../pages/palette';
import { TimeTravel } from '../pages/time-travel';

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { lineageFamily, PARENT, writeLineageFamily } from '../../integration/import/lineage-family';

test.setTimeout(180_000);

/** A word only the lineage family's parent prompt holds (and the fork's copy of it). */
const UNIQUE = 'quokkaparser';
const family = mkdtempSync(join(tmpdir(), 'arbor-e2e-delete-'));
writeLineageFamily(join(family, 'projects'), lineageFamily({ parentPrompt: `write the ${UNIQUE} module` }));

async function expectNoSeriousAxe(page: Page, selector: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('a session others go on from', () => {
  test.use({ arborOptions: { imports: [join(family, 'projects')] } });

  test('Delete key on the list: what goes is listed, refused until "also delete" is ticked, then the rows and search hits go', async ({ page, arbor }) => {
    const app = new ArborApp(page);
    const dialog = new DeleteDialog(page);
    await app.open(arbor.url);
    await app.graph.waitForNodes();
    await expect(app.sessions.rows).toHaveCount(4);
    // Search finds the parent's words before the deletion.
    await app.search.search(UNIQUE);
    await page.keyboard.press('Escape');
    await expect(app.search.hits).toHaveCount(0);

    await app.sessions.row(PARENT).click();
    await expect(app.sessions.row(PARENT)).toHaveAttribute('aria-selected', 'true');
    await app.sessions.list.focus();
    await page.keyboard.press('Delete');
    await expect(dialog.root).toBeVisible();
    await expect(dialog.root).toHaveAccessibleName('Delete session');
    await expect(dialog.plan).toBeVisible({ timeout: 15_000 });
    await expect(dialog.root.getByTestId('delete-title')).toContainText(UNIQUE);
    await expect(dialog.nodes).toHaveText(/^\d+ nodes$/);
    expect(await dialog.dependants.count()).toBeGreaterThanOrEqual(2);
    await expect(dialog.dependants.filter({ hasText: 'a fork of it' })).toHaveCount(1);
    await expect(dialog.dependants.filter({ hasText: 'continues it' })).toHaveCount(1);
    await expect(dialog.refused).toBeVisible();
    await expect(dialog.confirm).toBeDisabled();
    await app.screenshot('delete-01-refused-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('delete-02-refused-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectNoSeriousAxe(page, '[data-testid="delete-dialog"]');

    await dialog.withForks.check();
    await expect(dialog.refused).toHaveCount(0);
    await expect(dialog.confirm).toBeEnabled();
    await expect(dialog.confirm).toHaveText(/^Delete \d+ sessions$/);
    await expect(dialog.nodes).toContainText(' in ');
    await app.screenshot('delete-03-with-forks');
    await dialog.confirm.click();
    await expect(dialog.done).toBeVisible({ timeout: 60_000 });
    await expect(dialog.done).toContainText(UNIQUE);
    await expect(dialog.done).toContainText('going on from it');
    await app.screenshot('delete-04-deleted');
    await dialog.root.getByRole('button', { name: 'Done' }).click();
    await expect(dialog.root).toHaveCount(0);

    await expect(app.sessions.row(PARENT)).toHaveCount(0);
    await app.search.input.fill(UNIQUE);
    await expect(page.locator('.search__empty')).toContainText('Nothing found', { timeout: 15_000 });
    await expect(app.search.hits).toHaveCount(0);
    expect(JSON.parse((await arbor.cli(['search', UNIQUE, '--json'])).stdout)).toMatchObject({ hits: [] });
    await app.screenshot('delete-05-search-empty');
  });
});

test.describe('the demo session', () => {
  test.use({ arborOptions: { demo: true } });

/** A demo prompt (electron/demo/demo-script.ts). */
  const DOCUMENT_PROMPT = 'Document --top and --json in the README.';

  test('a temporary fork from the fork dialog; Clean up removes an orphan fork; Delete in the header takes the forks when ticked', async ({ page, arbor }) => {
    const app = new ArborApp(page);
    const travel = new TimeTravel(page);
    const palette = new CommandPalette(page);
    const cleanUp = new CleanUpDialog(page);
    const dialog = new DeleteDialog(page);
    // An orphan: a fork whose folder the user deleted by hand.
    const shown = JSON.parse((await arbor.cli(['show', arbor.demo!.sessionId, '--json'])).stdout) as { nodes: { id: string; kind: string }[] };
    const made = await arbor.cli(['fork', shown.nodes.find((node) => node.kind === 'user')!.id, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const orphan = JSON.parse(made.stdout) as ForkCreated;
    rmSync(orphan.dir, { recursive: true, force: true });

    await app.open(arbor.url);
    await app.graph.waitForNodes();
    // "Temporary — remove after 3 days" in the fork dialog marks the fork (arbor fork --temporary 3d).
    await app.search.search(DOCUMENT_PROMPT);
    await app.search.choose(app.search.hits.filter({ hasText: DOCUMENT_PROMPT }).first());
    await travel.forkButton.click();
    await expect(travel.fork.temporaryDays).toBeDisabled();
    await travel.fork.temporary.check();
    await travel.fork.temporaryDays.fill('3');
    await app.screenshot('delete-06-temporary-fork');
    await travel.fork.create.click();
    await expect(travel.fork.created).toBeVisible({ timeout: 30_000 });
    await expect(travel.fork.temporaryNote).toHaveText('removed by the clean up after 3 days');
    const temporaryDir = (await travel.fork.dir.textContent()) ?? '';
    await travel.fork.close();
    const listed = (JSON.parse((await arbor.cli(['forks', '--json'])).stdout) as { forks: ForkSummary[] }).forks;
    const temporary = listed.find((fork) => fork.dir === temporaryDir)!;
    const handles = openDatabase(join(arbor.dataDir, 'arbor.sqlite'));
    const expires = Date.parse(forkExpiry(handles.write, temporary.fork) ?? '');
    handles.close();
    expect(Math.abs(expires - Date.parse(temporary.createdAt) - 3 * 86_400_000)).toBeLessThan(60_000);

    // Clean up, from the palette: the orphan is listed and ticked; the temporary fork is not due yet.
    await palette.open();
    await palette.run('clean up', 'Clean up forks and storage');
    await expect(cleanUp.root).toBeVisible();
    await expect(cleanUp.fork(orphan.fork)).toBeVisible({ timeout: 15_000 });
    await expect(cleanUp.forks).toHaveCount(1);
    await expect(cleanUp.fork(orphan.fork)).toContainText('folder deleted');
    await expect(cleanUp.fork(orphan.fork).getByRole('checkbox')).toBeChecked();
    await expect(cleanUp.run).toHaveText('Remove 1 fork and reclaim space');
    // The fork's long paths stay on their label's line, cut in the middle, whole in the tooltip.
    const transcriptPath = cleanUp.fork(orphan.fork).getByTestId('clean-up-transcript');
    await expect(transcriptPath).toHaveAttribute('title', orphan.transcript!);
    const pathBox = (await transcriptPath.boundingBox())!;
    const labelBox = (await cleanUp.fork(orphan.fork).locator('.forget-candidate__path > span').boundingBox())!;
    expect(pathBox.height).toBeLessThan(2 * labelBox.height);
    expect(Math.abs(pathBox.y + pathBox.height / 2 - (labelBox.y + labelBox.height / 2))).toBeLessThan(labelBox.height / 2);
    const listBox = (await cleanUp.root.getByTestId('clean-up-list').boundingBox())!;
    expect(pathBox.x + pathBox.width).toBeLessThanOrEqual(listBox.x + listBox.width);
    await app.screenshot('delete-07-clean-up-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('delete-08-clean-up-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectNoSeriousAxe(page, '[data-testid="clean-up-dialog"]');
    await cleanUp.run.click();
    await expect(cleanUp.done).toBeVisible({ timeout: 60_000 });
    await expect(cleanUp.done).toContainText('Removed 1 fork.');
    await app.screenshot('delete-09-cleaned');
    const left = (JSON.parse((await arbor.cli(['forks', '--json'])).stdout) as { forks: ForkSummary[] }).forks.map((fork) => fork.fork);
    expect(left).toEqual([temporary.fork]);
    await cleanUp.root.getByRole('button', { name: 'Done' }).click();

    // The schedule, in Statistics beside Clean up: changed there, kept by the store.
    await palette.open();
    await palette.run('statistics', 'Show statistics');
    const schedule = page.getByTestId('gc-schedule-select');
    await expect(schedule).toHaveValue('weekly');
    await expect(page.getByTestId('gc-last-run')).toContainText('last run');
    await schedule.selectOption('daily');
    await page.getByTestId('gc-schedule').scrollIntoViewIfNeeded();
    await app.screenshot('delete-10-schedule');
    await page.keyboard.press('Escape');
    await expect(schedule).toHaveCount(0);
    await palette.open();
    await palette.run('statistics', 'Show statistics');
    await expect(page.getByTestId('gc-schedule-select')).toHaveValue('daily');
    await page.keyboard.press('Escape');

    // Delete from the header: the fork's folder is listed, kept unless ticked; ticked, it goes too.
    await dialog.headerButton.click();
    await expect(dialog.plan).toBeVisible({ timeout: 15_000 });
    await expect(dialog.forks).toHaveCount(1);
    await expect(dialog.forks.first()).toContainText(temporaryDir);
    await expect(dialog.confirm).toBeEnabled();
    await dialog.withForks.check();
    await expect(dialog.root.getByText('Fork folders and transcripts removed')).toBeVisible();
    await app.screenshot('delete-11-header-delete');
    await dialog.confirm.click();
    await expect(dialog.done).toBeVisible({ timeout: 60_000 });
    expect(existsSync(temporaryDir)).toBe(false);
    await dialog.root.getByRole('button', { name: 'Done' }).click();
    await expect(app.sessions.rows).toHaveCount(0);
    await app.expectNoError();
  });
});
