/**
 * The project view (issue 14): a generated folder with a Claude Code session, its fork, its continuation (and
 * a session following it), and a Codex rollout with its fork. The view opens from the project header and from
 * the palette ("Show project lineage"), draws every session of the folder as one tree of cards, and a card
 * opens its session at the linked step. Light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTINUATION, FOLLOWER, FORK, PARENT } from '../../integration/import/lineage-family';
import { CODEX_FORK, CODEX_SOURCE, writeProjectFamily } from '../../integration/lineage-codex/project-family';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { CommandPalette } from '../pages/palette';

const root = mkdtempSync(join(tmpdir(), 'arbor-e2e-project-lineage-'));
const written = writeProjectFamily(root);
test.afterAll(() => rmSync(root, { recursive: true, force: true }));
test.use({ arborOptions: { imports: [written.projects, written.codex] } });

for (const scheme of ['light', 'dark'] as const) {
  test(`every session of a folder, Claude Code and Codex, is one tree of cards; a fork's card opens it at the fork point (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 820 });
    const app = new ArborApp(page);
    await app.open(arbor.url);
    await expect(app.sessions.row(PARENT)).toBeVisible();

    await page.getByTestId('project-lineage-open').first().click();
    const view = page.getByRole('dialog', { name: 'Project lineage' });
    await expect(view).toBeVisible();
    const cards = view.getByTestId('lineage-card');
    await expect(cards).toHaveCount(6);
    const order = await cards.evaluateAll((all) => all.map((card) => card.getAttribute('data-session-id')));
    expect(order).toEqual([PARENT, FORK, CONTINUATION, FOLLOWER, CODEX_SOURCE, CODEX_FORK]);
    const depths = await view.locator('.lineage-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-depth')));
    expect(depths).toEqual(['0', '1', '1', '2', '0', '1']);
    await expect(view.locator(`[data-session-id="${CODEX_FORK}"]`)).toContainText('Codex');
    await expect(view.locator(`[data-session-id="${FORK}"]`)).toContainText('Claude Code');
    // Keyboard: the first card has focus, ↓ moves to the next.
    await expect(cards.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(cards.nth(1)).toBeFocused();
    await page.screenshot({ path: `test-results/e2e/project-lineage-${scheme}.png` });
    // Regression: titles squeezed by the marks beside them. A card's title is whole on its line; a listed
    // row's title keeps at least about half its line (the marks give way first), whole in its tooltip.
    const cut = await view.locator('.lineage-card__title').evaluateAll((titles) => titles.filter((t) => t.scrollWidth > t.clientWidth).map((t) => t.textContent));
    expect(cut).toEqual([]);
    const rows = await app.sessions.rows.evaluateAll((all) =>
      all.map((row) => {
        const title = row.querySelector<HTMLElement>('.session-row__title')!;
        const share = title.getBoundingClientRect().width / row.querySelector('.session-row__head')!.getBoundingClientRect().width;
        return { share: Math.round(share * 100) / 100, tooltip: title.title === title.textContent };
      }),
    );
    expect(rows.filter((row) => row.share < 0.45 || !row.tooltip)).toEqual([]);

    // The Codex fork's card opens the fork at its fork point: the source's last copied step.
    await view.locator(`[data-session-id="${CODEX_FORK}"]`).click();
    await expect(view).toHaveCount(0);
    await expect(app.sessions.row(CODEX_FORK)).toHaveAttribute('aria-selected', 'true');
    await app.graph.waitForNodes();
    await expect(page.getByTestId('session-link')).toHaveText(['forked from Port the parser to Rust']);
    const selected = page.locator('[data-node-id][aria-selected="true"]').first();
    await expect(selected).toHaveAttribute('data-node-id', new RegExp(`^${CODEX_SOURCE}:`));
    await page.screenshot({ path: `test-results/e2e/project-lineage-opened-${scheme}.png` });

    // From the palette too.
    const palette = new CommandPalette(page);
    await palette.open();
    await palette.run('project lineage', 'Show project lineage');
    await expect(page.getByRole('dialog', { name: 'Project lineage' }).getByTestId('lineage-card')).toHaveCount(6);
  });
}
