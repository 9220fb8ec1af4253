/**
 * Lineage the user can see (issue 13/14): a generated parent, its fork (`forkedFrom`) and its continuation
 * (`continued-in`), and a session that follows the continuation. The list shows the linked sessions under
 * their origin with "1 fork, continued in 1"; the fork opened from the list says "forked from …" in its
 * header, and that link opens the parent at the fork point. Light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTINUATION, FOLLOWER, FORK, lineageFamily, PARENT, writeLineageFamily } from '../../integration/import/lineage-family';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';

const projects = mkdtempSync(join(tmpdir(), 'arbor-e2e-lineage-'));
const family = lineageFamily();
writeLineageFamily(projects, family);
test.afterAll(() => rmSync(projects, { recursive: true, force: true }));
test.use({ arborOptions: { imports: [projects] } });

for (const scheme of ['light', 'dark'] as const) {
  test(`a fork and a continuation are listed under their origin, and the fork's header opens its parent at the fork point (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new ArborApp(page);
    await app.open(arbor.url);
    const parentRow = app.sessions.row(PARENT);
    await expect(parentRow).toBeVisible();
    await expect(parentRow.getByTestId('lineage-summary')).toHaveText('▾ 1 fork, continued in 1');
    // Listed under the parent, the follower under the continuation.
    await expect(app.sessions.row(FORK)).toHaveAttribute('data-depth', '1');
    await expect(app.sessions.row(CONTINUATION)).toHaveAttribute('data-depth', '1');
    await expect(app.sessions.row(FOLLOWER)).toHaveAttribute('data-depth', '2');
    const order = await app.sessions.rows.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-session-id')));
    expect(order.indexOf(PARENT)).toBeLessThan(order.indexOf(FORK));
    expect(order.indexOf(PARENT)).toBeLessThan(order.indexOf(CONTINUATION));
    expect(order.indexOf(CONTINUATION)).toBeLessThan(order.indexOf(FOLLOWER));
    await page.screenshot({ path: `test-results/e2e/session-lineage-list-${scheme}.png` });

    await app.sessions.open(FORK);
    await app.graph.waitForNodes();
    const links = page.getByTestId('session-link');
    await expect(links).toHaveText(['forked from write the parser']);
    await page.screenshot({ path: `test-results/e2e/session-lineage-fork-${scheme}.png` });

    await links.getByRole('button', { name: 'write the parser' }).click();
    await expect(app.sessions.row(PARENT)).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('.graph-pane__title')).toHaveText('write the parser');
    await expect(page.getByTestId('session-link')).toHaveText(['forked into try a streaming parser instead', 'continued in keep going in the background']);
    // The parent opens at the fork point: its node is the one selected.
    await expect(page.locator(`[data-node-id="${family.first.reply}"]`).first()).toHaveAttribute('aria-selected', 'true');
    await page.screenshot({ path: `test-results/e2e/session-lineage-parent-${scheme}.png` });

    // Folding the parent's line hides its fork and continuation (and the follower under it).
    await parentRow.getByTestId('lineage-summary').click();
    await expect(app.sessions.row(FORK)).toHaveCount(0);
    await expect(app.sessions.row(FOLLOWER)).toHaveCount(0);
  });
}
