/**
 * Page objects for time travel: the inspector's Files tab and actions, the rewind and fork dialogs, the
 * forks list, the operation history, the compare bar and view, and the graph's state markers. Selectors live only here.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { GraphPane } from './arbor-app';

export class RewindDialog {
  readonly root: Locator;
  readonly preview: Locator;
  readonly workspace: Locator;
  readonly written: Locator;
  readonly deleted: Locator;
  readonly sideEffects: Locator;
  /** The warning group of files written from a replay not verified at the node. */
  readonly unverified: Locator;
  readonly apply: Locator;
  readonly result: Locator;
  readonly undo: Locator;
  readonly undone: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('rewind-dialog');
    this.preview = this.root.getByTestId('rewind-preview');
    this.workspace = this.root.getByTestId('rewind-workspace');
    this.written = this.root.getByTestId('changes-written');
    this.deleted = this.root.getByTestId('changes-deleted');
    this.sideEffects = this.root.getByTestId('side-effects');
    this.unverified = this.root.getByTestId('rewind-unverified');
    this.apply = this.root.getByTestId('rewind-apply');
    this.result = this.root.getByTestId('rewind-result');
    this.undo = this.root.getByTestId('rewind-undo');
    this.undone = this.root.getByTestId('rewind-undone');
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Done' }).click();
    await expect(this.root).toHaveCount(0);
  }
}

export class ForkDialog {
  readonly root: Locator;
  readonly target: Locator;
  readonly create: Locator;
  readonly created: Locator;
  readonly dir: Locator;
  readonly resume: Locator;
  /** "Temporary — remove after N days", its number of days, and the created fork's note about it. */
  readonly temporary: Locator;
  readonly temporaryDays: Locator;
  readonly temporaryNote: Locator;
  readonly transcript: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('fork-dialog');
    this.temporary = this.root.getByTestId('fork-temporary');
    this.temporaryDays = this.root.getByTestId('fork-temporary-days');
    this.temporaryNote = this.root.getByTestId('fork-temporary-note');
    this.transcript = this.root.getByTestId('fork-transcript');
    this.target = this.root.getByTestId('fork-target');
    this.create = this.root.getByTestId('fork-create');
    this.created = this.root.getByTestId('fork-created');
    this.dir = this.root.getByTestId('fork-dir');
    this.resume = this.root.getByTestId('fork-resume');
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Done' }).click();
    await expect(this.root).toHaveCount(0);
  }
}

export class ForksDialog {
  readonly open: Locator;
  readonly root: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.open = page.getByTestId('open-forks');
    this.root = page.getByTestId('forks-dialog');
    this.rows = this.root.getByTestId('fork-row');
  }

  row(dir: string): Locator {
    return this.rows.filter({ hasText: dir });
  }

  /** Removes a fork through its two-step button (Remove…, then confirm). */
  async remove(row: Locator): Promise<void> {
    await row.getByTestId('fork-remove').click();
    await row.getByTestId('fork-remove-confirm').click();
  }
}

export class FilesTab {
  readonly tab: Locator;
  readonly root: Locator;
  readonly known: Locator;
  readonly changed: Locator;
  readonly treeFiles: Locator;
  readonly viewer: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByTestId('inspector-tab-files');
    this.root = page.getByTestId('node-files');
    this.known = page.getByTestId('state-known');
    this.changed = page.getByTestId('changed-file');
    this.treeFiles = page.getByTestId('tree-file');
    this.viewer = page.getByTestId('file-viewer');
  }

  treeFile(relative: string): Locator {
    return this.page.locator(`[data-testid="tree-file"][data-path="${relative}"]`);
  }

  async back(): Promise<void> {
    await this.page.getByTestId('file-back').click();
  }
}

export class CompareView {
  readonly bar: Locator;
  readonly openButton: Locator;
  readonly root: Locator;
  readonly files: Locator;
  readonly diff: Locator;

  constructor(readonly page: Page) {
    this.bar = page.getByTestId('compare-bar');
    this.openButton = page.getByTestId('compare-open');
    this.root = page.getByTestId('compare-dialog');
    this.files = this.root.getByTestId('compare-file');
    this.diff = this.root.getByTestId('diff-view');
  }

  async layout(name: 'Unified' | 'Side by side'): Promise<void> {
    await this.root.getByRole('button', { name, exact: true }).click();
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(this.root).toHaveCount(0);
  }
}

export class HistoryDialog {
  readonly open: Locator;
  readonly root: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.open = page.getByTestId('open-history');
    this.root = page.getByTestId('history-dialog');
    this.rows = this.root.getByTestId('history-row');
  }

  /** The newest operation of a kind (rewind, merge, undo): the list is newest first. */
  newest(kind: 'rewind' | 'merge' | 'undo'): Locator {
    return this.root.locator(`[data-testid="history-row"][data-kind="${kind}"]`).first();
  }

  status(row: Locator): Locator {
    return row.getByTestId('history-status');
  }

  undo(row: Locator): Locator {
    return row.getByTestId('history-undo');
  }

  undone(row: Locator): Locator {
    return row.getByTestId('history-undone');
  }

  async close(): Promise<void> {
    await this.root.getByRole('button', { name: 'Close' }).last().click();
    await expect(this.root).toHaveCount(0);
  }
}

export class TimeTravel {
  readonly rewindButton: Locator;
  readonly forkButton: Locator;
  readonly stateMarkers: Locator;
  readonly rewind: RewindDialog;
  readonly fork: ForkDialog;
  readonly forks: ForksDialog;
  readonly history: HistoryDialog;
  readonly files: FilesTab;
  readonly compare: CompareView;
  /** The open session's header line that continues it (`cd … && codex resume <id>`, a Codex session). */
  readonly sessionResume: Locator;

  constructor(readonly page: Page) {
    this.rewindButton = page.getByTestId('action-rewind');
    this.forkButton = page.getByTestId('action-fork');
    this.stateMarkers = page.getByTestId('state-marker');
    this.rewind = new RewindDialog(page);
    this.fork = new ForkDialog(page);
    this.forks = new ForksDialog(page);
    this.history = new HistoryDialog(page);
    this.files = new FilesTab(page);
    this.compare = new CompareView(page);
    this.sessionResume = page.getByTestId('session-resume');
  }

  /** Shift+click: the node becomes the other end of a comparison. */
  async compareWith(node: Locator): Promise<void> {
    await new GraphPane(this.page).scrollIntoView(node);
    await node.click({ modifiers: ['Shift'] });
    await expect(node).toHaveAttribute('data-compared', 'true');
  }
}
