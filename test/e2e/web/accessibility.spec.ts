/**
 * An automated accessibility check (axe-core) of the main screen with the demo open, the command palette,
 * the shortcut overlay and a time-travel dialog, in light and dark: no serious or critical violations.
 * The roles and names that screen readers and keyboard users rely on are asserted first.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { CommandPalette, ShortcutsOverlay } from '../pages/palette';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

/** Serious and critical violations, one line each, so a failure says what and where. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`));
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the main screen, the palette, the shortcut overlay and the fork dialog pass axe (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new ArborApp(page);
    const travel = new TimeTravel(page);
    await app.open(arbor.url);
    await app.graph.waitForNodes();
    await expect(page.getByRole('tree', { name: 'Session graph' })).toBeVisible();
    await expect(page.getByRole('treeitem').first()).toHaveAccessibleName(/\S+: \S+/);
    await expect(page.getByRole('listbox', { name: 'Sessions' })).toBeVisible();
    // Arrow keys move the cursor; the tree names it as its active descendant, so a screen reader follows.
    const tree = app.graph.tree();
    await tree.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const active = page.locator(`[id="${await tree.getAttribute('aria-activedescendant')}"]`);
    await expect(active).toHaveRole('treeitem');
    await expect(active).toHaveAttribute('data-selected', 'true');
    await app.screenshot(`accessibility-01-keyboard-cursor-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);

    const palette = new CommandPalette(page);
    await palette.open();
    await palette.input.fill('rewind');
    await expect(palette.items.first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    const overlay = new ShortcutsOverlay(page);
    await app.graph.root.focus();
    await overlay.open();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await travel.forkButton.click();
    await expect(travel.fork.root).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
