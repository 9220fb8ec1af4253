/**
 * Fork from a Codex node in the app (`arbor serve`, Chromium) with CODEX_HOME in a temp folder: the fork dialog
 * shows `cd <folder> && codex resume <new id>`, the rollout it wrote under $CODEX_HOME/sessions passes the
 * rollout rules and names its source, and once resumed (a step appended) and imported the fork opens as a Codex session whose header shows
 * the same command with a copy button. Screenshots in light and dark.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sampleRollout } from '../../../electron/demo/codex-rollout';
import { checkRollout } from '../../../electron/forks/codex/rollout-rules';
import { startArborServer } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { TimeTravel } from '../pages/time-travel';

test.setTimeout(150_000);

const ID = '019e0000-0000-7000-8000-0000000000f1';

function rolloutsBelow(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? rolloutsBelow(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`fork from a Codex node writes a rollout codex resume continues, and shows the command (${scheme})`, async ({ page }) => {
    const root = mkdtempSync(join(tmpdir(), 'arbor-codex-fork-e2e-'));
    const codexHome = join(root, 'codex');
    const workspace = join(root, 'date-utils');
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'dates.ts'), 'export const weekday = (d: Date) => d.getUTCDay();\n');
    const day = join(codexHome, 'sessions', '2026', '11', '30');
    mkdirSync(day, { recursive: true });
    const source = join(day, `rollout-2026-11-30T09-00-00-${ID}.jsonl`);
    await sampleRollout({ id: ID, cwd: workspace }).write(source);
    const arbor = await startArborServer({ imports: [join(codexHome, 'sessions')], env: { CODEX_HOME: codexHome } });
    try {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      const travel = new TimeTravel(page);
      await app.open(arbor.url);
      await expect(app.sessions.row(ID)).toBeVisible({ timeout: 30_000 });
      await app.sessions.open(ID);
      await app.graph.waitForNodes();
      // The source session says how to continue it too.
      await expect(travel.sessionResume).toContainText(`codex resume ${ID}`);

      const reply = app.graph.nodesOfKind('assistant').filter({ hasText: 'The date test passes now' }).first();
      await app.graph.scrollIntoView(reply);
      await app.graph.select(reply);
      await travel.forkButton.click();
      await expect(travel.fork.root).toBeVisible();
      await app.screenshot(`codex-fork-01-dialog-${scheme}`);
      await travel.fork.create.click();
      await expect(travel.fork.created).toBeVisible({ timeout: 60_000 });
      const dir = (await travel.fork.dir.textContent()) ?? '';
      await expect(travel.fork.resume).toContainText(/codex resume [0-9a-f-]{36}$/);
      const newId = /codex resume ([0-9a-f-]{36})$/.exec((await travel.fork.resume.textContent()) ?? '')![1]!;
      await expect(travel.fork.resume).toHaveText(`cd ${dir} && codex resume ${newId}`);
      await app.screenshot(`codex-fork-02-forked-${scheme}`);

      // The rollout on disk: under CODEX_HOME, named for its id, passing the rules, linked to its source.
      const written = rolloutsBelow(join(codexHome, 'sessions')).filter((path) => path !== source);
      expect(written.map((path) => basename(path))).toEqual([expect.stringMatching(new RegExp(`^rollout-.*-${newId}\\.jsonl$`))]);
      const verdict = checkRollout(readFileSync(written[0]!, 'utf8'), { fileName: basename(written[0]!) });
      expect(verdict).toEqual({ resumable: true, threadId: newId, forkedFromId: ID, findings: [] });
      expect(readFileSync(join(dir, 'src', 'dates.ts'), 'utf8')).toContain('getUTCDay');
      await travel.fork.close();

      // Once `codex resume` adds a step (its copied turn is the source's own steps, stored once), the reloaded app
      // imports CODEX_HOME again and the fork is a Codex session of its own, forked from its source.
      appendFileSync(written[0]!, `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on in the fork' }] } })}\n`);
      await page.reload();
      const forkRow = app.sessions.row(newId);
      await expect(forkRow).toBeVisible({ timeout: 30_000 });
      await expect(forkRow.getByTestId('agent-mark')).toHaveText('Codex');
      await app.sessions.open(newId);
      await app.graph.waitForNodes();
      await expect(travel.sessionResume).toContainText(`codex resume ${newId}`);
      await expect(travel.sessionResume).toHaveAttribute('title', `cd ${dir} && codex resume ${newId}`);
      await expect(travel.sessionResume.getByTestId('copy-button')).toBeVisible();
      await expect(page.getByText('forked from', { exact: false }).first()).toBeVisible();
      await app.screenshot(`codex-fork-03-fork-session-${scheme}`);
      // Regression: the fork's row squeezed its title to "Go …" beside its "forked from …" mark and its badges. Measured
      // at rest: the click that opened it left the pointer on the row, and a hovered row's title gives room to its
      // Delete… mark (its tooltip still says it whole).
      await page.mouse.move(0, 0);
      await expect(forkRow.getByTestId('session-delete')).toBeHidden();
      const squeeze = await forkRow.evaluate((row) => {
        const title = row.querySelector<HTMLElement>('.session-row__title')!;
        return { title: title.getBoundingClientRect().width, head: row.querySelector('.session-row__head')!.getBoundingClientRect().width, label: title.title };
      });
      expect(squeeze.title).toBeGreaterThanOrEqual(squeeze.head * 0.45);
      expect(squeeze.label).toBe('Go on in the fork');
      await app.expectNoError();
    } finally {
      await arbor.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}
