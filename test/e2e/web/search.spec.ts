/**
 * Search in Chromium against `arbor serve`, on the demo session: a quoted phrase, kind filters typed and
 * toggled from the keyboard with the chips, and the hint; screenshots in light and dark.
 */
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

for (const scheme of ['light', 'dark'] as const) {
  test(`a phrase and kind filters narrow the hits, and the chips toggle them from the keyboard (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new ArborApp(page);
    const chips = page.getByTestId('search-chips');
    await app.open(arbor.url);
    await app.graph.waitForNodes();

    await app.search.search('"the README"');
    await expect(page.getByTestId('search-hint')).toContainText('"exact phrase"');
    const all = await app.search.hits.count();

    await app.search.input.fill('README kind:prompt');
    await expect(chips.getByRole('button', { name: 'Prompts' })).toHaveAttribute('aria-pressed', 'true');
    await expect(app.search.hits.first()).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.search__status')).not.toContainText('Searching');
    await expect(app.search.hits.first().locator('.kind-dot')).toHaveClass(/kind-dot--user/);
    for (const dot of await app.search.hits.locator('.kind-dot').all()) await expect(dot).toHaveClass(/kind-dot--user/);
    await app.screenshot(`search-01-prompts-${scheme}`);

    // Tab reaches the chips; Space toggles one, which edits the typed tokens.
    await app.search.input.focus();
    await page.keyboard.press('Tab');
    await expect(chips.getByRole('button', { name: 'Prompts' })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(app.search.input).toHaveValue('README');
    await expect(page.locator('.search__status')).not.toContainText('Searching');
    await expect(app.search.hits.first()).toBeVisible();
    expect(await app.search.hits.count()).toBeGreaterThanOrEqual(1);
    expect(all).toBeGreaterThanOrEqual(1);
    await app.screenshot(`search-02-words-${scheme}`);
    await app.expectNoError();
  });
}
