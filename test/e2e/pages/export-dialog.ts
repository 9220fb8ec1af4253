/** The Export dialog (renderer/src/export/ExportDialog.tsx): its scope, format, findings, file and result. */
import type { Locator, Page } from '@playwright/test';

export class ExportDialog {
  readonly openButton: Locator;
  readonly root: Locator;
  readonly findings: Locator;
  readonly path: Locator;
  readonly write: Locator;
  readonly written: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.openButton = page.getByTestId('open-export');
    this.root = page.getByTestId('export-dialog');
    this.findings = this.root.getByTestId('export-finding');
    this.path = this.root.getByTestId('export-path');
    this.write = this.root.getByTestId('export-write');
    this.written = this.root.getByTestId('export-written');
    this.error = this.root.getByTestId('time-travel-error');
  }

  format(format: 'md' | 'html' | 'json'): Locator {
    return this.root.getByTestId(`export-format-${format}`);
  }

  finding(rule: string): Locator {
    return this.findings.and(this.page.locator(`[data-rule="${rule}"]`));
  }

  scope(name: RegExp | string): Locator {
    return this.root.getByRole('radio', { name });
  }
}
