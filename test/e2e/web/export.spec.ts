/**
 * Export with the redaction preview, in Chromium against `arbor serve`, on a generated session with planted
 * secrets (test/integration/export/export-session.ts): the dialog lists the secrets found, one is unticked,
 * the export is written, and the file holds that secret and none of the others. Light and dark screenshots;
 * axe finds no serious violation in the dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { ExportDialog } from '../pages/export-dialog';
import { CommandPalette } from '../pages/palette';
import { writeExportSession } from '../../integration/export/export-session';

const fixture = mkdtempSync(join(tmpdir(), 'arbor-e2e-export-'));
const written = writeExportSession(join(fixture, 'home'));
const out = mkdtempSync(join(tmpdir(), 'arbor-e2e-export-out-'));

test.use({ arborOptions: { imports: [written.projectsDir] } });
test.setTimeout(120_000);

test('the Export dialog previews the secrets, keeps the one unticked, and writes the rest redacted', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const dialog = new ExportDialog(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await expect(dialog.openButton).toBeVisible();
  await app.screenshot('export-00-header');

  await dialog.openButton.click();
  await expect(dialog.root).toBeVisible();
  await expect(dialog.findings.first()).toBeVisible({ timeout: 30_000 });
  expect(await dialog.findings.count()).toBeGreaterThanOrEqual(8);
  // The preview shows where and what, masked: never a secret itself.
  const listed = (await dialog.root.textContent()) ?? '';
  for (const secret of [written.secrets.githubToken, written.secrets.slackToken, written.secrets.envPassword]) expect(listed).not.toContain(secret);
  await expect(dialog.finding('secretlint/slack')).toContainText('SLACK_BOT=xoxb-••••••••');
  await app.screenshot('export-01-preview-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('export-02-preview-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const { violations } = await new AxeBuilder({ page }).include('[data-testid="export-dialog"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The user decides the Slack token may stay, exports the session as HTML.
  await dialog.scope("The session's latest branch").check();
  await expect(dialog.findings.first()).toBeVisible({ timeout: 30_000 });
  await dialog.finding('secretlint/slack').getByRole('checkbox').uncheck();
  await dialog.format('html').check();
  const file = join(out, 'shipit.html');
  await dialog.path.fill(file);
  await app.screenshot('export-03-ready');
  await dialog.write.click();
  await expect(dialog.written).toBeVisible({ timeout: 30_000 });
  await expect(dialog.written).toContainText(file);
  await app.screenshot('export-04-written');

  const html = readFileSync(file, 'utf8');
  expect(html).toContain(written.secrets.slackToken);
  for (const secret of [written.secrets.githubToken, written.secrets.envPassword, written.secrets.envToken, written.secrets.anthropicKey, written.secrets.basicAuthPassword]) {
    expect(html).not.toContain(secret);
  }
  expect(html).toContain('[REDACTED:secretlint/github]');
  expect(html).not.toMatch(/<script/i);

  // The written file, opened as a user would, in light and dark.
  await page.goto(`file://${file}`);
  await page.screenshot({ path: join('test-results', 'screenshots', 'export-05-file-light.png'), fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join('test-results', 'screenshots', 'export-06-file-dark.png'), fullPage: false });
  await page.locator('details.agent-run > summary').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join('test-results', 'screenshots', 'export-07-file-dark-later.png') });
});

test('the palette opens the Export dialog; an existing file is not replaced unless asked', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const dialog = new ExportDialog(page);
  const palette = new CommandPalette(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await palette.open();
  await palette.input.fill('export');
  await expect(palette.items.first()).toContainText('Export the session or branch');
  await page.keyboard.press('Enter');
  await expect(dialog.root).toBeVisible();
  await expect(dialog.findings.first()).toBeVisible({ timeout: 30_000 });
  const file = join(out, 'taken.md');
  writeFileSync(file, 'mine');
  await dialog.path.fill(file);
  await dialog.write.click();
  await expect(dialog.error).toHaveAttribute('data-code', 'EXISTS');
  expect(readFileSync(file, 'utf8')).toBe('mine');
  await dialog.root.getByTestId('export-overwrite').check();
  await dialog.write.click();
  await expect(dialog.written).toBeVisible({ timeout: 30_000 });
  expect(readFileSync(file, 'utf8')).toMatch(/^# Deploy shipit with \\\[REDACTED:secretlint\/github\\\]/);
});
