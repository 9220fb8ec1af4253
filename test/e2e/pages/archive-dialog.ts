/** The Export archive dialog (renderer/src/archive/ArchiveExportDialog.tsx): its folder, options and result. */
import type { Locator, Page } from '@playwright/test';

export class ArchiveDialog {
  readonly root: Locator;
  readonly dir: Locator;
  readonly force: Locator;
  readonly write: Locator;
  readonly exported: Locator;
  readonly importCommand: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Export archive' });
    this.dir = this.root.getByRole('textbox', { name: 'Folder' });
    this.force = this.root.getByRole('checkbox', { name: /Replace the folder/ });
    this.write = this.root.getByRole('button', { name: 'Export archive' });
    this.exported = this.root.getByTestId('archive-exported');
    this.importCommand = this.root.getByTestId('archive-import-command');
    this.error = this.root.getByTestId('time-travel-error');
  }
}
