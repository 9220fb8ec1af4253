/**
 * Page objects for Arbor's window (the same bundle in Electron and behind `arbor serve`).
 * Specs speak in product words (open a session, select a node, search); selectors live only here.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const SCREENSHOTS = join('test-results', 'screenshots');

export class SessionsPane {
  readonly list: Locator;
  readonly rows: Locator;
  readonly filter: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByTestId('session-list');
    this.rows = page.getByTestId('session-row');
    this.filter = page.getByTestId('session-filter');
  }

  row(sessionId: string): Locator {
    return this.page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`);
  }

  async filterBy(text: string): Promise<void> {
    await this.filter.fill(text);
  }

  /** Opens a session from the list (filtering first so the virtualized row is rendered). */
  async open(sessionId: string, filterText?: string): Promise<void> {
    if (filterText !== undefined) await this.filterBy(filterText);
    const row = this.row(sessionId);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
  }
}

export class GraphPane {
  readonly root: Locator;
  readonly nodes: Locator;
  readonly branchBadges: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('graph');
    this.nodes = page.getByTestId('graph-node');
    this.branchBadges = page.getByTestId('branch-badge');
  }

  node(nodeId: string): Locator {
    return this.page.locator(`[data-testid="graph-node"][data-node-id="${nodeId}"]`);
  }

  nodesOfKind(kind: string): Locator {
    return this.page.locator(`[data-testid="graph-node"][data-kind="${kind}"]`);
  }

  selected(): Locator {
    return this.page.locator('[data-testid="graph-node"][data-selected="true"]');
  }

  /**
   * Waits for the graph's first nodes. A huge session takes longer on a loaded build box; its speed is
   * measured by bench:graph, not here, so such specs pass a longer timeout.
   */
  async waitForNodes(timeout?: number): Promise<void> {
    await expect(this.root).toBeVisible({ timeout });
    await expect(this.nodes.first()).toBeVisible({ timeout });
  }

  /** The ARIA tree the keyboard moves through. */
  tree(): Locator {
    return this.page.getByRole('tree', { name: 'Session graph' });
  }

  /** The zoom control that fits the whole session in the pane. */
  async fitView(): Promise<void> {
    await this.root.getByRole('button', { name: 'Fit whole session' }).click();
  }

  async select(node: Locator): Promise<string> {
    await node.click();
    await expect(node).toHaveAttribute('data-selected', 'true');
    return (await node.getAttribute('data-node-id')) ?? '';
  }

  /**
   * Pans the canvas with the wheel, as a user scrolls, until `node` lies well inside the graph pane: a node
   * just below the fold is mounted (and clickable for Playwright) but a user could not see it.
   */
  async scrollIntoView(node: Locator, margin = 80): Promise<void> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const pane = await this.root.boundingBox();
      const box = await node.boundingBox();
      if (!pane || !box) return;
      const below = box.y + box.height + margin - (pane.y + pane.height);
      const above = pane.y + margin - box.y;
      if (below <= 0 && above <= 0) return;
      await this.page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
      // React Flow pans by half the wheel's delta (panOnScrollSpeed).
      await this.page.mouse.wheel(0, below > 0 ? below * 2 : -above * 2);
      await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    }
  }

  /** A card's first line (the tool, the call a result answers, the kind). */
  cardTitle(node: Locator): Locator {
    return node.getByTestId('card-title');
  }

  /** Cards marked as failed calls (or groups of steps holding one). */
  failed(): Locator {
    return this.page.locator('[data-testid="graph-node"][data-failed="true"]');
  }

  /** The "+N" annotations: hidden lines hanging on a step. */
  hiddenLines(): Locator {
    return this.page.getByTestId('hidden-lines');
  }

  /** A kind filter in the graph's toolbar: prompts, replies, thinking, tools, errors, system. */
  kindFilter(filter: 'prompts' | 'replies' | 'thinking' | 'tools' | 'errors' | 'system'): Locator {
    return this.page.getByTestId(`graph-filter-${filter}`);
  }

  showAllLines(): Locator {
    return this.page.getByTestId('graph-show-all-lines');
  }
}

export class InspectorPane {
  readonly root: Locator;
  readonly kind: Locator;
  readonly toolOutcomes: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('inspector');
    this.kind = page.getByTestId('inspector-kind');
    // Scoped to the inspector: the conversation beside the graph shows outcome badges too.
    this.toolOutcomes = this.root.getByTestId('tool-outcome');
  }

  async kindName(): Promise<string> {
    await expect(this.kind).toBeVisible();
    return (await this.kind.getAttribute('data-kind')) ?? '';
  }
}

export class SearchBox {
  readonly input: Locator;
  readonly hits: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId('search-input');
    this.hits = page.getByTestId('search-hit');
  }

  async search(text: string): Promise<void> {
    await this.input.fill(text);
    await expect(this.hits.first()).toBeVisible({ timeout: 15_000 });
  }

  /** Chooses a hit and returns where it points. */
  async choose(hit: Locator): Promise<{ sessionId: string; nodeId: string }> {
    const sessionId = (await hit.getAttribute('data-session-id')) ?? '';
    const nodeId = (await hit.getAttribute('data-node-id')) ?? '';
    // The hit list reacts to mousedown (a click would lose to the input's blur).
    await hit.dispatchEvent('mousedown');
    return { sessionId, nodeId };
  }
}

export class FirstRun {
  readonly offer: Locator;
  readonly createButton: Locator;

  constructor(readonly page: Page) {
    this.offer = page.getByTestId('demo-offer');
    this.createButton = page.getByTestId('demo-create');
  }
}

export class ArborApp {
  readonly sessions: SessionsPane;
  readonly graph: GraphPane;
  readonly inspector: InspectorPane;
  readonly search: SearchBox;
  readonly firstRun: FirstRun;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.sessions = new SessionsPane(page);
    this.graph = new GraphPane(page);
    this.inspector = new InspectorPane(page);
    this.search = new SearchBox(page);
    this.firstRun = new FirstRun(page);
    this.error = page.getByTestId('app-error');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }

  async expectNoError(): Promise<void> {
    await expect(this.error).toHaveCount(0);
  }

  /**
   * Saves test-results/screenshots/<name>.png for a human (or a reviewer) to look at. Transitions are run to
   * their end first: taken just after a switch to dark, the search box was caught in its 0.12 s background fade,
   * light grey behind light text, and read as unreadable.
   */
  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path, animations: 'disabled' });
    return path;
  }
}
