/**
 * Page object for the merge view: "Merge…" in the compare bar, the file list, the three panes and the
 * result with its hunk bars, Apply, and the result card with Undo. Selectors live only here.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type HunkChoice = 'ours' | 'theirs' | 'ours-then-theirs' | 'theirs-then-ours' | 'base';

export class MergeViewPage {
  readonly openButton: Locator;
  readonly root: Locator;
  readonly sides: Locator;
  readonly into: Locator;
  readonly conflictsLeft: Locator;
  readonly fileRows: Locator;
  readonly openFile: Locator;
  readonly fileConflictsLeft: Locator;
  readonly result: Locator;
  readonly hunkBars: Locator;
  readonly messages: Locator;
  readonly apply: Locator;
  readonly outcome: Locator;
  readonly written: Locator;
  readonly mergeNodeId: Locator;
  readonly undo: Locator;
  readonly undone: Locator;
  readonly done: Locator;
  readonly wrapButton: Locator;

  constructor(readonly page: Page) {
    this.openButton = page.getByTestId('merge-open');
    this.root = page.getByTestId('merge-view');
    this.sides = this.root.getByTestId('merge-sides');
    this.into = this.root.getByTestId('merge-into');
    this.conflictsLeft = this.root.getByTestId('merge-conflicts-left');
    this.fileRows = this.root.getByTestId('merge-file-row');
    this.openFile = this.root.getByTestId('merge-file');
    this.fileConflictsLeft = this.root.getByTestId('file-conflicts-left');
    this.result = this.root.getByTestId('merge-result');
    this.hunkBars = this.result.getByTestId('hunk-bar');
    this.messages = this.root.getByTestId('merge-message');
    this.apply = this.root.getByTestId('merge-apply');
    this.outcome = this.root.getByTestId('merge-outcome');
    this.written = this.root.getByTestId('outcome-written');
    this.mergeNodeId = this.root.getByTestId('merge-node-id');
    this.undo = this.root.getByTestId('merge-undo');
    this.undone = this.root.getByTestId('merge-undone');
    this.done = this.root.getByTestId('merge-done');
    this.wrapButton = this.root.getByTestId('merge-wrap');
  }

  fileRow(path: string): Locator {
    return this.root.locator(`[data-testid="merge-file-row"][data-path="${path}"]`);
  }

  pane(side: 'ours' | 'base' | 'theirs'): Locator {
    return this.root.getByTestId(`merge-pane-${side}`);
  }

  /** A version's title bar (ours, base, theirs or the result): its heading, and the full story as its tooltip. */
  title(version: 'ours' | 'base' | 'theirs' | 'result'): Locator {
    return this.root.getByTestId(`merge-title-${version}`);
  }

  /** The changed words marked in a pane or the result, in the colour of the side that changed them (base: the replaced words). */
  changedWords(where: Locator, side: 'ours' | 'theirs' | 'removed'): Locator {
    return where.locator(`.cm-merge-word--${side}`);
  }

  /** Every editor's scroller, whose horizontal overflow says whether long lines wrap. */
  scrollers(): Locator {
    return this.root.locator('.cm-scroller');
  }

  hunkBar(ordinal: number): Locator {
    return this.result.locator(`[data-testid="hunk-bar"][data-ordinal="${ordinal}"]`);
  }

  /** "Merge…" from the compare bar; waits until the preview is on screen. */
  async open(): Promise<void> {
    await this.openButton.click();
    await expect(this.root).toBeVisible();
    await expect(this.sides).toBeVisible({ timeout: 30_000 });
  }

  async showFile(path: string): Promise<void> {
    await this.fileRow(path).click();
    await expect(this.openFile).toHaveAttribute('data-path', path);
  }

  /** Takes one side (or both, or the base) for one conflict, with the bar drawn above it in the result. */
  async takeHunk(ordinal: number, choice: HunkChoice): Promise<void> {
    const bar = this.hunkBar(ordinal);
    await bar.scrollIntoViewIfNeeded();
    await bar.locator(`button[data-choice="${choice}"]`).click();
    await expect(bar).toHaveClass(/is-settled/);
  }
}
