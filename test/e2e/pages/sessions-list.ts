/** The sessions list as a project browser: groups (projects), their headers, the sort, the orphan marks. */
import type { Locator, Page } from '@playwright/test';

export class SessionsList {
  readonly listbox: Locator;
  readonly groups: Locator;
  readonly sort: Locator;
  readonly orphanMarks: Locator;
  readonly importProgress: Locator;
  readonly importSummary: Locator;

  constructor(readonly page: Page) {
    this.listbox = page.getByRole('listbox', { name: 'Sessions' });
    this.groups = this.listbox.getByRole('group');
    this.sort = page.getByTestId('session-sort');
    this.orphanMarks = page.getByTestId('orphan-mark');
    this.importProgress = page.getByTestId('import-progress');
    this.importSummary = page.getByTestId('import-summary');
  }

  group(name: string): Locator {
    return this.listbox.getByRole('group', { name, exact: true });
  }

  header(name: string): Locator {
    return this.group(name).getByTestId('session-group-header');
  }

  sessionsOf(name: string): Locator {
    return this.group(name).getByRole('option');
  }

  /** Project names top to bottom, as rendered. */
  async groupNames(): Promise<string[]> {
    return this.groups.evaluateAll((groups) => groups.map((group) => group.getAttribute('aria-label') ?? ''));
  }

  /** The row under the keyboard cursor (a session, or a project header). */
  cursor(): Locator {
    return this.listbox.locator('.is-cursor');
  }
}
