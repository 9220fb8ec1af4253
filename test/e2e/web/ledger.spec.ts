/**
 * The side-effect ledger in Chromium against `arbor serve`, on a generated session (test/integration/ledger/
 * ledger-session.ts): a commit with no recorded outcome, the session resumed, the same commit again, a push
 * without outcome, a publish repeated after a rewind. Before a fork at the kept prompt, the dialog lists what
 * the carried steps did outside, the replayed commit marked "possible double effect"; the session's Side
 * effects dialog lists every branch. Light and dark screenshots; axe finds no serious violation.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { LedgerPage } from '../pages/ledger';
import { TimeTravel } from '../pages/time-travel';
import { COMMIT, PUBLISH, PUSH, writeLedgerSession } from '../../integration/ledger/ledger-session';

const fixture = mkdtempSync(join(tmpdir(), 'arbor-e2e-ledger-'));
const written = writeLedgerSession(join(fixture, 'home'));

test.use({ arborOptions: { imports: [written.projectsDir] } });

async function expectNoSeriousViolations(page: Page, selector: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('the fork dialog lists the side effects the fork carries, the replayed commit marked', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  const ledger = new LedgerPage(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();

  await app.search.search(written.keptPrompt);
  const target = await app.search.choose(app.search.hits.filter({ hasText: written.keptPrompt }).first());
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
  await travel.forkButton.click();
  await expect(travel.fork.root).toBeVisible();
  await expect(ledger.forkCarried).toBeVisible({ timeout: 20_000 });

  const commits = ledger.entries(ledger.forkCarried, COMMIT);
  await expect(commits).toHaveCount(2);
  await expect(commits.nth(0)).toHaveAttribute('data-outcome', 'missing');
  await expect(commits.nth(0)).toContainText('requested, outcome not recorded');
  await expect(commits.nth(0).getByTestId('replay')).toHaveCount(0);
  await expect(commits.nth(1).getByTestId('replay')).toContainText('Possible double effect: git commit requested again');
  await expect(ledger.forkCarried.getByTestId('replay-count')).toHaveText('1 possible double effect');
  await expect(ledger.entries(ledger.forkCarried, PUSH)).toContainText('requested, outcome not recorded');
  // The publish comes after the fork point on this branch: listed apart, not carried.
  await expect(ledger.entries(ledger.forkAfter, PUBLISH)).toHaveCount(1);
  await expect(ledger.entries(ledger.forkCarried, PUBLISH)).toHaveCount(0);

  await app.screenshot('ledger-01-fork-light');
  await expectNoSeriousViolations(page, '[data-testid="fork-dialog"]');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('ledger-02-fork-dark');
  await expectNoSeriousViolations(page, '[data-testid="fork-dialog"]');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await expect(travel.fork.root).toHaveCount(0);

  // The session's whole ledger: the publish retried after the rewind is a replay too; from the keyboard.
  await ledger.open.focus();
  await page.keyboard.press('Enter');
  await expect(ledger.list).toBeVisible({ timeout: 20_000 });
  const publishes = ledger.entries(ledger.list, PUBLISH);
  await expect(publishes).toHaveCount(2);
  await expect(publishes.nth(1).getByTestId('replay')).toContainText('it already ran on another branch');
  await app.screenshot('ledger-03-session-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('ledger-04-session-dark');
  await expectNoSeriousViolations(page, '[data-testid="ledger-dialog"]');
  await page.emulateMedia({ colorScheme: 'light' });

  // "Show the earlier request" goes to the abandoned branch's publish.
  await publishes.nth(1).getByRole('button', { name: 'Show the earlier request' }).click();
  await expect(ledger.dialog).toHaveCount(0);
  await expect(app.graph.selected()).toHaveCount(1);
  await app.expectNoError();
});
