/**
 * The conversation view's page object: the selected branch as a transcript, beside the graph or full width.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class ConversationPane {
  readonly region: Locator;
  readonly rows: Locator;
  readonly selectedRow: Locator;
  readonly branchSwitches: Locator;
  readonly modes: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'Conversation' });
    this.rows = this.region.getByTestId('conversation-row');
    this.selectedRow = this.region.locator('[data-testid="conversation-row"][data-selected="true"]');
    this.branchSwitches = this.region.getByTestId('branch-switch');
    this.modes = page.getByTestId('conversation-mode');
  }

  row(nodeId: string): Locator {
    return this.region.locator(`[data-testid="conversation-row"][data-node-id="${nodeId}"]`);
  }

  /** Tool call rows of one tool (Edit, Bash…) among the mounted rows. */
  calls(tool: string): Locator {
    return this.region.locator(`[data-testid="conversation-call"][data-tool="${tool}"]`);
  }

  callsWithOutcome(outcome: 'ok' | 'error' | 'missing'): Locator {
    return this.region.locator(`[data-testid="conversation-call"][data-outcome="${outcome}"]`);
  }

  async selectedNodeId(): Promise<string> {
    await expect(this.selectedRow).toHaveCount(1);
    return (await this.selectedRow.getAttribute('data-node-id')) ?? '';
  }

  async setMode(label: 'Graph' | 'Both' | 'Conversation'): Promise<void> {
    await this.modes.getByRole('button', { name: label, exact: true }).click();
  }

  /** Presses a conversation key with the focus outside any field (on the page body). */
  async press(key: string): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.keyboard.press(key);
  }
}
