/**
 * Page objects for forgetting (renderer/src/forget/): the Delete dialog (what goes, the "also delete" tick,
 * the result) and the Clean up dialog (the forks gc found, each with a checkbox, and what was reclaimed).
 */
import type { Locator, Page } from '@playwright/test';

export class DeleteDialog {
  readonly headerButton: Locator;
  readonly root: Locator;
  readonly plan: Locator;
  readonly nodes: Locator;
  readonly dependants: Locator;
  readonly forks: Locator;
  readonly withForks: Locator;
  readonly refused: Locator;
  readonly confirm: Locator;
  readonly done: Locator;

  constructor(readonly page: Page) {
    this.headerButton = page.getByTestId('open-delete');
    this.root = page.getByRole('dialog', { name: /^(Delete session|Session deleted)$/ });
    this.plan = this.root.getByTestId('delete-plan');
    this.nodes = this.root.getByTestId('delete-nodes');
    this.dependants = this.root.getByTestId('delete-dependants').locator('li');
    this.forks = this.root.getByTestId('delete-forks').locator('li');
    this.withForks = this.root.getByTestId('delete-with-forks');
    this.refused = this.root.getByTestId('delete-refused');
    this.confirm = this.root.getByTestId('delete-confirm');
    this.done = this.root.getByTestId('delete-done');
  }
}

export class CleanUpDialog {
  readonly root: Locator;
  readonly forks: Locator;
  readonly run: Locator;
  readonly done: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Clean up' });
    this.forks = this.root.getByTestId('clean-up-fork');
    this.run = this.root.getByTestId('clean-up-run');
    this.done = this.root.getByTestId('clean-up-done');
  }

  fork(forkId: string): Locator {
    return this.root.locator(`[data-testid="clean-up-fork"][data-fork-id="${forkId}"]`);
  }
}
