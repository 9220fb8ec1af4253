/**
 * Page objects for the command palette (Ctrl/Cmd+K) and the keyboard shortcut overlay (`?`).
 * Selectors live only here; specs find them by their accessible roles and names, as a screen reader would.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class CommandPalette {
  readonly root: Locator;
  readonly input: Locator;
  readonly items: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Command palette' });
    this.input = this.root.getByTestId('palette-input');
    this.items = this.root.getByTestId('palette-item');
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+k');
    await expect(this.root).toBeVisible();
    await expect(this.input).toBeFocused();
  }

  /** Types into the palette and runs the first item with Enter, as a keyboard user would. */
  async run(text: string, expectedTitle: string | RegExp): Promise<void> {
    await this.input.fill(text);
    await expect(this.items.first()).toContainText(expectedTitle);
    await this.page.keyboard.press('Enter');
    await expect(this.root).toHaveCount(0);
  }
}

export class ShortcutsOverlay {
  readonly root: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    this.rows = this.root.getByTestId('shortcut-row');
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('?');
    await expect(this.root).toBeVisible();
  }

  /** The rows whose keys are exactly `keys` ("Shift F", not "Ctrl/⌘ Shift F"). */
  row(keys: string): Locator {
    const exactly = new RegExp(`^${keys.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
    return this.rows.filter({ has: this.page.locator('kbd', { hasText: exactly }) });
  }
}
