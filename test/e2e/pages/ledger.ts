/** Page objects for the side-effect ledger: its lists in the fork dialog and the session's Side effects dialog. */
import type { Locator, Page } from '@playwright/test';

export class LedgerPage {
  readonly forkCarried: Locator;
  readonly forkAfter: Locator;
  readonly open: Locator;
  readonly dialog: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    const fork = page.getByTestId('fork-dialog');
    this.forkCarried = fork.getByTestId('fork-effects-carried');
    this.forkAfter = fork.getByTestId('fork-effects-after');
    this.open = page.getByTestId('open-ledger');
    this.dialog = page.getByTestId('ledger-dialog');
    this.list = this.dialog.getByTestId('ledger');
  }

  /** The entries of a list whose command (or call) reads `summary`. */
  entries(list: Locator, summary: string): Locator {
    return list.locator('li.tt-effect').filter({ has: this.page.locator('code', { hasText: summary }) });
  }
}
