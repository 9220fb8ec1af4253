/**
 * A generated Codex rollout imported into `arbor serve` (Chromium): listed with its Codex badge, opened in the
 * graph and the conversation view, found by search; its tool calls read as what they are (a command with its
 * output, a patch per file, a plan, a named MCP call); screenshots in light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RolloutBuilder, sampleRollout } from '../../../electron/demo/codex-rollout';
import { startArborServer } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { ConversationPane } from '../pages/conversation';

test.setTimeout(120_000);

const ID = '019e0000-0000-7000-8000-0000000000e2';

for (const scheme of ['light', 'dark'] as const) {
  test(`a Codex session is listed as Codex, opens in the graph and the conversation, and is found by search (${scheme})`, async ({ page }) => {
    const folder = mkdtempSync(join(tmpdir(), 'arbor-codex-e2e-'));
    await sampleRollout({ id: ID, cwd: '/work/app' }).write(join(folder, `rollout-2026-11-30T09-00-00-${ID}.jsonl.zst`));
    const arbor = await startArborServer({ imports: [folder] });
    try {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      const conversation = new ConversationPane(page);
      await app.open(arbor.url);
      const row = app.sessions.row(ID);
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(row.getByTestId('agent-mark')).toHaveText('Codex');
      await app.sessions.open(ID);
      await app.graph.waitForNodes();
      await expect(app.graph.nodesOfKind('user').first()).toBeVisible();
      await expect(app.graph.nodesOfKind('thinking').first()).toContainText('Look at the test first');
      await app.screenshot(`codex-01-graph-${scheme}`);

      await conversation.setMode('Both');
      await expect(conversation.region).toBeVisible();
      await expect(conversation.rows.filter({ hasText: 'Fix the failing date test' }).first()).toBeVisible();
      await expect(conversation.rows.filter({ hasText: 'weekday is read in UTC' }).first()).toBeVisible();
      // Graph → Both narrowed the pane from its right edge and the centred cards went under the conversation:
      // the camera keeps the pane's centre.
      const graphBox = (await page.getByTestId('graph').boundingBox())!;
      const selectedCard = (await page.locator('[data-testid="graph-node"][data-selected="true"]').boundingBox())!;
      expect(selectedCard.x + selectedCard.width).toBeLessThanOrEqual(graphBox.x + graphBox.width);
      await app.screenshot(`codex-02-conversation-${scheme}`);

      await app.search.search('weekday');
      await expect(app.search.hits.first()).toBeVisible({ timeout: 15_000 });
      const hit = await app.search.choose(app.search.hits.first());
      expect(hit.sessionId).toBe(ID);
      await expect(app.graph.node(hit.nodeId)).toHaveAttribute('data-selected', 'true');
      await app.screenshot(`codex-03-search-${scheme}`);
      await app.expectNoError();
    } finally {
      await arbor.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

const TOOLS_ID = '019e0000-0000-7000-8000-0000000000e3';

for (const scheme of ['light', 'dark'] as const) {
  test(`a Codex session's tool calls read as commands, patches, plans and named tools, not JSON (${scheme})`, async ({ page }) => {
    const folder = mkdtempSync(join(tmpdir(), 'arbor-codex-e2e-'));
    const patch = ['*** Begin Patch', '*** Add File: docs/notes.md', '+# Notes', '+UTC everywhere.', '*** Update File: src/dates.ts', '@@ export function weekday(d: Date)', '-  return d.getDay();', '+  return d.getUTCDay();', '*** Delete File: src/old-dates.ts', '*** End Patch'].join('\n');
    await new RolloutBuilder({ id: TOOLS_ID, cwd: '/work/app' })
      .user('Plan and fix the weekday bug')
      .reasoning('Plan first, then look at the failing test')
      .plan([{ step: 'Reproduce the failure', status: 'completed' }, { step: 'Read weekdays in UTC', status: 'in_progress' }, { step: 'Run the suite', status: 'pending' }], 'Small fix, test first.')
      .command('npm test -- dates', { exitCode: 1, output: '\u001b[31mFAIL\u001b[0m src/dates.test.ts\n  \u001b[2mexpected 1, got 0\u001b[0m\n\u001b[1m1 failed\u001b[0m, 11 passed' })
      .tool('shell', { command: ['bash', '-lc', 'apply_patch <<\'EOF\'\n' + patch + '\nEOF'] }, JSON.stringify({ output: 'Success. Updated the following files:\nA docs/notes.md\nM src/dates.ts\nD src/old-dates.ts\n', metadata: { exit_code: 0 } }))
      .webSearch('Date.prototype.getUTCDay')
      .tool('mcp__github__get_issue', { repo: 'acme/app', number: 42 }, '{"title":"Weekday is off by one at midnight"}')
      .command('git push origin fix-weekday', null)
      .agent('Fixed: weekdays are read in UTC.')
      .complete()
      .write(join(folder, `rollout-2026-11-30T10-00-00-${TOOLS_ID}.jsonl`));
    const arbor = await startArborServer({ imports: [folder] });
    try {
      await page.setViewportSize({ width: 1600, height: 1000 });
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      const conversation = new ConversationPane(page);
      await app.open(arbor.url);
      await expect(app.sessions.row(TOOLS_ID)).toBeVisible({ timeout: 30_000 });
      await app.sessions.open(TOOLS_ID);
      await app.graph.waitForNodes();
      await conversation.setMode('Conversation');
      await expect(conversation.region).toBeVisible();
      const calls = conversation.region.getByTestId('conversation-call');
      const plan = calls.filter({ has: page.getByTestId('conversation-plan') });
      await expect(plan).toBeVisible();
      await expect(plan.locator('li[data-status="completed"]')).toHaveText('✓Reproduce the failure');
      await expect(plan).toContainText('1 of 3 steps done');
      const failing = calls.filter({ hasText: 'npm test -- dates' }).first();
      await expect(failing.getByTestId('conversation-command')).toHaveText('$ npm test -- dates');
      await expect(failing.getByTestId('conversation-exit-code')).toHaveText('exit 1');
      await expect(failing.locator('.ansi-red-fg')).toHaveText('FAIL');
      await expect(failing).not.toContainText('\u001b');
      await expect(failing).not.toContainText('"cmd"');
      const patched = calls.filter({ has: page.getByTestId('conversation-patch') });
      await expect(patched.getByTestId('conversation-patch-file')).toHaveCount(3);
      await expect(patched).not.toContainText('*** Begin Patch');
      await expect(patched.locator('.conv-diff__line--added').filter({ hasText: 'getUTCDay' })).toBeVisible();
      await expect(conversation.region.locator('[data-tool="mcp__github__get_issue"] .conv-call__name')).toHaveText('github/get_issue');
      await expect(conversation.region.locator('[data-tool="web_search"]')).toContainText('Date.prototype.getUTCDay');
      await expect(calls.filter({ hasText: 'git push origin fix-weekday' }).getByTestId('conversation-missing')).toBeVisible();
      await failing.scrollIntoViewIfNeeded();
      await app.screenshot(`codex-04-tool-calls-${scheme}`);
      await patched.scrollIntoViewIfNeeded();
      await app.screenshot(`codex-05-patch-${scheme}`);

      // The inspector reads the same shapes.
      await conversation.setMode('Both');
      await failing.click();
      const inspector = page.getByTestId('inspector');
      await expect(inspector.getByTestId('conversation-command')).toHaveText('$ npm test -- dates');
      await app.screenshot(`codex-06-inspector-${scheme}`);
      await app.expectNoError();
    } finally {
      await arbor.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}
