/**
 * The command palette and the shortcut overlay in Chromium against `arbor serve`, on the demo session:
 * Ctrl+K, "fork", Enter opens the fork dialog and a fork is made on disk; `?` lists every shortcut.
 * Screenshots in light and dark.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { CommandPalette, ShortcutsOverlay } from '../pages/palette';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

/** The demo's README prompt (electron/demo/demo-script.ts): before it, the README does not document --json. */
const DOCUMENT_PROMPT = 'Document --top and --json in the README.';

test('the palette jumps to a node by its text and forks from it', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const palette = new CommandPalette(page);
  const travel = new TimeTravel(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();

  // Jump to the README prompt by its text, from the palette.
  await palette.open();
  await palette.input.fill('Document --top');
  const jump = palette.items.filter({ hasText: 'Document' }).filter({ hasText: 'User' }).first();
  await expect(jump).toBeVisible({ timeout: 15_000 });
  await app.screenshot('palette-01-jump');
  await jump.dispatchEvent('mousedown');
  await expect(palette.root).toHaveCount(0);
  await expect(app.graph.selected()).toContainText(DOCUMENT_PROMPT);
  const forkPoint = (await app.graph.selected().getAttribute('data-node-id')) ?? '';

  // Fork from it: Ctrl+K, "fork", Enter.
  await palette.open();
  await palette.input.fill('fork');
  await expect(palette.items.first()).toContainText('Fork from the selected node');
  await app.screenshot('palette-02-fork-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('palette-03-fork-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Enter');
  await expect(palette.root).toHaveCount(0);
  await expect(travel.fork.root).toBeVisible();
  await expect(travel.fork.root).toContainText(DOCUMENT_PROMPT);
  await travel.fork.create.click();
  await expect(travel.fork.created).toBeVisible({ timeout: 30_000 });
  const dir = (await travel.fork.dir.textContent()) ?? '';
  expect(existsSync(join(dir, 'README.md'))).toBe(true);
  expect(readFileSync(join(dir, 'README.md'), 'utf8')).not.toContain('--json');
  await travel.fork.close();
  await expect(app.graph.selected()).toHaveAttribute('data-workspace-kind', 'fork');
  expect(await app.graph.selected().getAttribute('data-node-id')).not.toBe(forkPoint);
  await app.expectNoError();
});

test('Escape closes the palette and gives focus back; an action that cannot run is not offered', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const palette = new CommandPalette(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await app.graph.root.focus();
  await palette.open();
  // Nothing is compared yet, so neither "compare" nor "merge" is there to choose.
  await palette.input.fill('merge');
  await expect(palette.items.filter({ hasText: 'Merge the compared node' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(palette.root).toHaveCount(0);
  await expect(app.graph.root).toBeFocused();
});

test('? lists every shortcut, in light and dark', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const overlay = new ShortcutsOverlay(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await app.graph.root.focus();
  await overlay.open();
  for (const keys of ['Ctrl/⌘ K', '?', 'Shift F', 'r', 'j / k', 'n / p', '[ / ]', 'c']) await expect(overlay.row(keys).first()).toBeVisible();
  await expect(overlay.row('Shift F').first()).toContainText('Fork from the selected node');
  await app.screenshot('palette-04-shortcuts-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('palette-05-shortcuts-dark');
  await page.keyboard.press('Escape');
  await expect(overlay.root).toHaveCount(0);
  await expect(app.graph.root).toBeFocused();
  // Typing `?` into a field types it; it does not open the overlay.
  await app.search.input.focus();
  await page.keyboard.press('?');
  await expect(overlay.root).toHaveCount(0);
  await expect(app.search.input).toHaveValue('?');
});
