/**
 * "Export archive…" from the palette (issue 15), in Chromium against `arbor serve` on the demo session, all from
 * the keyboard: a folder that holds something is refused (EXISTS) until "Replace" is ticked, then the archive
 * is written and the dialog says how to install it elsewhere. The folder holds the store, the snapshot
 * repository and the manifest. Light and dark screenshots; axe finds no serious violation in the dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArchiveDialog } from '../pages/archive-dialog';
import { ArborApp } from '../pages/arbor-app';
import { CommandPalette } from '../pages/palette';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

test('the palette exports the whole store to a folder, refusing a non-empty one until asked to replace it', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const palette = new CommandPalette(page);
  const dialog = new ArchiveDialog(page);
  const dir = join(mkdtempSync(join(tmpdir(), 'arbor-e2e-archive-')), 'arbor-archive');
  mkdirSync(dir);
  writeFileSync(join(dir, 'notes.txt'), 'not an archive');

  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await palette.open();
  await palette.run('export archive', 'Export archive…');
  await expect(dialog.root).toBeVisible();
  await expect(dialog.dir).toBeFocused();
  await page.keyboard.type(dir);
  await app.screenshot('archive-01-dialog-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('archive-02-dialog-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="archive-export-dialog"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Enter in the field submits: the folder is not empty, so nothing is written.
  await page.keyboard.press('Enter');
  await expect(dialog.error).toHaveAttribute('data-code', 'EXISTS');
  expect(readdirSync(dir)).toEqual(['notes.txt']);
  await app.screenshot('archive-03-refused');

  await dialog.force.focus();
  await page.keyboard.press('Space');
  await expect(dialog.force).toBeChecked();
  await dialog.write.focus();
  await page.keyboard.press('Enter');
  await expect(dialog.exported).toBeVisible({ timeout: 30_000 });
  await expect(dialog.exported).toContainText(dir);
  await expect(dialog.importCommand).toHaveText(`arbor import-archive ${JSON.stringify(dir)}`);
  await app.screenshot('archive-04-written-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('archive-05-written-dark');

  expect(readdirSync(dir).sort()).toEqual(['README.txt', 'arbor.sqlite', 'manifest.json', 'snapshots.git']);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { counts: { sessions: number } };
  expect(manifest.counts.sessions).toBeGreaterThan(0);
  expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
  await page.keyboard.press('Escape');
  await expect(dialog.root).toHaveCount(0);
});
