/**
 * The open session's head in every width the graph pane takes: the title readable (its start, with the rest in a
 * tooltip), nothing drawn over anything else, and every button in sight and clickable. Light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { SessionHead } from '../pages/session-head';

/** The least of a cut title a user must see to know the session (a one-letter "N" was what a 255 px pane showed). */
const TITLE_CHARS = 20;
/** Window widths: graph panes of 650 px (one line), 500 px (the title on its own line), 400 and 310 px (icons), 255 px (1000 px with the list and inspector open), the 240 px floor. */
const WINDOWS = [1400, 1250, 1150, 1060, 1000, 900] as const;

test.use({ arborOptions: { demo: true } });

for (const scheme of ['light', 'dark'] as const) {
  test(`the session head keeps its title readable and its buttons in reach at every pane width (${scheme})`, async ({ page, arbor }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new ArborApp(page);
    const head = new SessionHead(page);
    await app.open(arbor.url);
    await app.sessions.open(arbor.demo!.sessionId);
    await app.graph.waitForNodes();
    for (const width of WINDOWS) {
      await page.setViewportSize({ width, height: 800 });
      await expect(head.title).toBeVisible();
      const pane = await page.locator('.graph-pane').evaluate((element) => element.getBoundingClientRect().width);
      const reading = await head.read();
      const where = `window ${width} px, pane ${Math.round(pane)} px`;
      expect(reading.buttons, where).toBeGreaterThanOrEqual(5); // the three views, Export…, Delete…: the check is not vacuous
      expect(Math.min(reading.title.length, TITLE_CHARS), where).toBeGreaterThan(0);
      expect(reading.titleShown, `${where}: "${reading.title.slice(0, reading.titleShown)}" of "${reading.title}"`).toBeGreaterThanOrEqual(Math.min(reading.title.length, TITLE_CHARS));
      expect(reading.tooltip, where).toBe(reading.title);
      expect(reading.overlaps, where).toEqual([]);
      expect(reading.outOfReach, where).toEqual([]);
      // The selected card stays whole in the narrower pane (the camera kept the pane's centre and cut it by half).
      await expect.poll(() => selectedCardInPane(page), { message: where }).toEqual({ left: true, right: true });
      await app.screenshot(`session-head-${width}-${scheme}`);
    }
    // Each of the head's buttons answers a click at its place at the narrowest width: Export… opens its dialog.
    await page.getByTestId('open-export').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await app.expectNoError();
  });
}

/** Whether the selected card's left and right ends are inside the graph's pane. */
function selectedCardInPane(page: Page) {
  return page.getByTestId('graph').evaluate((graph) => {
    const pane = graph.getBoundingClientRect();
    const card = graph.querySelector('[data-testid="graph-node"][data-selected="true"]')?.getBoundingClientRect();
    return { left: card !== undefined && card.left >= pane.left - 0.5, right: card !== undefined && card.right <= pane.right + 0.5 };
  });
}
