/** Page object for the turn overview (the canvas a big session's graph becomes when zoomed out) and the minimap. */
import { expect, type Locator, type Page } from '@playwright/test';

export class OverviewPane {
  readonly root: Locator;
  readonly canvas: Locator;
  /** The hidden list of the labels drawn on the canvas (canvas text is not in the DOM). */
  readonly labels: Locator;
  readonly minimap: Locator;
  readonly minimapToggle: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('graph-overview');
    this.canvas = this.root.locator('canvas');
    this.labels = page.getByTestId('overview-labels').locator('li');
    this.minimap = page.getByTestId('graph-minimap');
    this.minimapToggle = page.getByTestId('minimap-toggle');
  }

  labelsOfKind(kind: 'turn' | 'branch-point' | 'branch-end' | 'branch-head'): Locator {
    return this.page.locator(`[data-testid="overview-labels"] li[data-kind="${kind}"]`);
  }

  async zoom(): Promise<number> {
    return Number(await this.root.getAttribute('data-zoom'));
  }

  /** Ctrl + wheel over the canvas centre, like a pinch or Ctrl+scroll. */
  async zoomIn(steps: number): Promise<void> {
    const box = await this.canvas.boundingBox();
    expect(box).not.toBeNull();
    // Over the first lane, where the session's line runs.
    await this.page.mouse.move(box!.x + 90, box!.y + box!.height / 3);
    await this.page.keyboard.down('Control');
    for (let k = 0; k < steps; k++) await this.page.mouse.wheel(0, -120);
    await this.page.keyboard.up('Control');
  }

  /** The zoom controls' + and − (React Flow's panel), which zoom the overview while it shows. */
  zoomButton(direction: 'in' | 'out'): Locator {
    return this.page.getByRole('button', { name: direction === 'in' ? 'Zoom in' : 'Zoom out' });
  }
}
