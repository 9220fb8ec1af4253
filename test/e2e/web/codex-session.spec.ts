/**
 * A generated Codex rollout imported into `arbor serve` (Chromium): listed with its Codex badge, opened in the
 * graph and the conversation view, found by search; screenshots in light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sampleRollout } from '../../../electron/demo/codex-rollout';
import { startArborServer } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { ConversationPane } from '../pages/conversation';

test.setTimeout(120_000);

const ID = '019e0000-0000-7000-8000-0000000000e2';

for (const scheme of ['light', 'dark'] as const) {
  test(`a Codex session is listed as Codex, opens in the graph and the conversation, and is found by search (${scheme})`, async ({ page }) => {
    const folder = mkdtempSync(join(tmpdir(), 'arbor-codex-e2e-'));
    await sampleRollout({ id: ID, cwd: '/work/app' }).write(join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl.zst`));
    const arbor = await startArborServer({ imports: [folder] });
    try {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      const conversation = new ConversationPane(page);
      await app.open(arbor.url);
      const row = app.sessions.row(ID);
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(row.getByTestId('agent-mark')).toHaveText('Codex');
      await app.sessions.open(ID);
      await app.graph.waitForNodes();
      await expect(app.graph.nodesOfKind('user').first()).toBeVisible();
      await expect(app.graph.nodesOfKind('thinking').first()).toContainText('Look at the test first');
      await app.screenshot(`codex-01-graph-${scheme}`);

      await conversation.setMode('Both');
      await expect(conversation.region).toBeVisible();
      await expect(conversation.rows.filter({ hasText: 'Fix the failing date test' }).first()).toBeVisible();
      await expect(conversation.rows.filter({ hasText: 'weekday is read in UTC' }).first()).toBeVisible();
      // Graph → Both narrowed the pane from its right edge and the centred cards went under the conversation:
      // the camera keeps the pane's centre.
      const graphBox = (await page.getByTestId('graph').boundingBox())!;
      const selectedCard = (await page.locator('[data-testid="graph-node"][data-selected="true"]').boundingBox())!;
      expect(selectedCard.x + selectedCard.width).toBeLessThanOrEqual(graphBox.x + graphBox.width);
      await app.screenshot(`codex-02-conversation-${scheme}`);

      await app.search.search('weekday');
      await expect(app.search.hits.first()).toBeVisible({ timeout: 15_000 });
      const hit = await app.search.choose(app.search.hits.first());
      expect(hit.sessionId).toBe(ID);
      await expect(app.graph.node(hit.nodeId)).toHaveAttribute('data-selected', 'true');
      await app.screenshot(`codex-03-search-${scheme}`);
      await app.expectNoError();
    } finally {
      await arbor.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}
