/**
 * The archive in the app (issue 15): Claude Code's cleanupPeriodDays left at its default is said once (a
 * dismissible notice, remembered by the store), and a session whose transcript and file-history backups were
 * deleted is marked "source deleted" in the list and its header, and still opens; light and dark, with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startArborServer, type ArborServer } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { writeArchivedSession, type ArchivedSession } from '../../integration/archive/archive-fixture';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the archive (${scheme})`, () => {
    let work: string;
    let session: ArchivedSession;
    let arbor: ArborServer;

    test.beforeEach(async () => {
      work = mkdtempSync(join(tmpdir(), 'arbor-e2e-archive-'));
      const config = join(work, 'claude');
      session = writeArchivedSession(config, join(work, 'project'), 'a7c41e00-1500-4000-8000-0000000000e2');
      arbor = await startArborServer({ imports: [session.transcript], env: { CLAUDE_CONFIG_DIR: config } });
    });
    test.afterEach(async () => {
      await arbor.close();
      rmSync(work, { recursive: true, force: true });
    });

    test(`says the cleanup default once, then marks the session whose transcript went "source deleted" (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      await app.open(arbor.url);
      const notice = page.getByRole('region', { name: 'Claude Code transcript cleanup' });
      await expect(notice).toContainText('Claude Code deletes transcripts older than 30 days; Arbor keeps what it imported.');
      await expect(notice).toContainText('cleanupPeriodDays');
      await expect(notice).toContainText('"cleanupPeriodDays": 365');
      await expect(notice).toContainText(join(work, 'claude', 'settings.json'));
      await app.screenshot(`archive-01-cleanup-notice-${scheme}`);
      expect(await seriousViolations(page)).toEqual([]);
      // Dismissed from the keyboard; the store remembers it, so a reload does not say it again.
      const dismiss = notice.getByRole('button', { name: 'Dismiss' });
      await dismiss.focus();
      await page.keyboard.press('Enter');
      await expect(notice).toHaveCount(0);
      await page.reload();
      await expect(app.sessions.row(session.sessionId)).toBeVisible();
      await expect(page.getByTestId('cleanup-notice')).toHaveCount(0);
      await expect(app.sessions.row(session.sessionId).getByTestId('source-deleted-mark')).toHaveCount(0);

      // Claude Code's cleanup removes the transcript and its backups.
      rmSync(session.transcript);
      rmSync(session.fileHistory, { recursive: true });
      // The live tail notices, and the open list marks it without a reload.
      const row = app.sessions.row(session.sessionId);
      const mark = row.getByTestId('source-deleted-mark');
      await expect(mark).toHaveText('source deleted', { timeout: 20_000 });
      await expect(mark).toHaveAttribute('title', /store keeps everything it imported/);
      await expect(row).toHaveAccessibleName(/source deleted/);
      await app.sessions.open(session.sessionId);
      await app.graph.waitForNodes();
      const note = page.getByTestId('source-deleted-note');
      await expect(note).toContainText('source deleted');
      await expect(note).toHaveAttribute('title', /browse, search, export, fork and rewind work as before/);
      // The inspector's Source line of the selected step says where its line is kept now.
      await expect(page.getByTestId('source-deleted-source')).toHaveText('source deleted — kept in Arbor’s store');
      await app.screenshot(`archive-02-source-deleted-${scheme}`);
      expect(await seriousViolations(page)).toEqual([]);
      await app.expectNoError();
    });
  });
}
