/**
 * The session header says what Arbor does not understand in a session's transcript (sessions.formatReport,
 * the same report as `arbor doctor`), and the note opens the details; light and dark.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';

// Claude Code 2.1.114: permission-mode and last-prompt records, tool_reference blocks, newer attachments.
const SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const FILE = join(CORPUS_DIR, 'claude-code-log/real_projects/-experiments-worktrees', `${SESSION}.jsonl`);

test.describe('the format report in the session header', () => {
  test.skip(!existsSync(FILE), `the corpus session is not at ${FILE}; skipping the format report spec`);
  test.use({ arborOptions: { imports: [FILE] } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`says what is not understood and opens the details (${scheme})`, async ({ page, arbor }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      await app.open(arbor.url);
      await app.sessions.open(SESSION);
      await app.graph.waitForNodes();
      const note = page.getByTestId('format-report-note');
      await expect(note).toHaveText('6 line shapes not understood');
      await app.screenshot(`format-report-01-header-${scheme}`);
      await note.click();
      const details = page.getByTestId('format-report');
      await expect(details).toBeVisible();
      for (const name of ['permission-mode', 'last-prompt', 'tool_reference', 'skill_listing']) await expect(details).toContainText(name);
      await expect(details).toContainText('2.1.114');
      await app.screenshot(`format-report-02-details-${scheme}`);
      await page.keyboard.press('Escape');
      await expect(details).toBeHidden();
      await app.expectNoError();
    });
  }
});
