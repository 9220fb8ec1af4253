/**
 * Rewind on a Codex session in Chromium against `arbor serve`: a generated rollout that patches files (Add,
 * Update by context, Move, Delete, a rejected patch, a command that writes), its workspace folder made here;
 * the Files tab at a Codex step (known and unknown files, the diff of a patched file), a rewind previewed,
 * applied and undone. Light runs the legacy history mode, dark the paginated one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fileStatesRollout, GREET_V1, GREET_V2 } from '../../../electron/demo/codex-file-rollout';
import { startArborServer } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { TimeTravel } from '../pages/time-travel';

test.setTimeout(180_000);

const RUNS = [
  { scheme: 'light', mode: 'legacy', id: '019e0000-0000-7000-8000-0000000000c1' },
  { scheme: 'dark', mode: 'paginated', id: '019e0000-0000-7000-8000-0000000000c2' },
] as const;

for (const { scheme, mode, id } of RUNS) {
  test(`a Codex session's Files tab lists its file states and a rewind on them previews, applies and undoes (${mode}, ${scheme})`, async ({ page }) => {
    const root = mkdtempSync(join(tmpdir(), 'arbor-codex-rewind-e2e-'));
    const workspace = join(root, 'greeter');
    const rollout = fileStatesRollout({ id, cwd: workspace, mode });
    // The workspace as the session left it.
    for (const [path, content] of rollout.finalFiles) {
      if (content === null) continue;
      mkdirSync(join(workspace, path, '..'), { recursive: true });
      writeFileSync(join(workspace, path), content);
    }
    const sessions = join(root, 'codex');
    mkdirSync(sessions);
    await rollout.builder.write(join(sessions, `rollout-2026-11-30T09-00-00-${id}.jsonl`));
    const arbor = await startArborServer({ imports: [sessions] });
    try {
      await page.emulateMedia({ colorScheme: scheme });
      const app = new ArborApp(page);
      const travel = new TimeTravel(page);
      await app.open(arbor.url);
      await expect(app.sessions.row(id)).toBeVisible({ timeout: 30_000 });
      await app.sessions.open(id);
      await app.graph.waitForNodes();
      await expect(travel.stateMarkers.first()).toBeVisible({ timeout: 20_000 });

      // The step that moved notes.md with an edit and deleted scratch.txt: its outcome changed three files.
      if (mode === 'legacy') {
        // Found by search, which unfolds the run of tool steps holding it: the patch's outcome says "D scratch.txt".
        await app.search.search('scratch.txt');
        const hit = app.search.hits.filter({ hasText: /D scratch\.txt/ }).first();
        await expect(hit).toBeVisible({ timeout: 15_000 });
        const moved = await app.search.choose(hit);
        await expect(app.graph.node(moved.nodeId)).toHaveAttribute('data-selected', 'true');
      } else {
        // The paginated item is the call and its outcome in one card.
        await app.graph.select(app.graph.nodes.filter({ hasText: 'Update notes.md, Delete scratch.txt' }));
      }
      await travel.files.tab.click();
      await expect(travel.files.changed).toHaveCount(3);
      await expect(travel.files.root.locator('[data-testid="changed-file"][data-path="docs/notes.md"]')).toBeVisible();
      await expect(travel.files.treeFile('src/greet.ts')).toBeVisible();
      await app.screenshot(`codex-rewind-01-files-${mode}-${scheme}`);
      await travel.files.root.locator('[data-testid="changed-file"][data-path="docs/notes.md"]').click();
      await expect(travel.files.viewer).toContainText('it ends with an exclamation mark');
      await app.screenshot(`codex-rewind-02-diff-${mode}-${scheme}`);
      await travel.files.back();

      // Rewind to the second prompt: the end of the first turn.
      await app.search.search(rollout.prompts[1]!);
      const target = await app.search.choose(app.search.hits.filter({ hasText: rollout.prompts[1]! }).first());
      await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
      await app.graph.root.focus();
      await page.keyboard.press('r');
      await expect(travel.rewind.preview).toBeVisible({ timeout: 20_000 });
      await expect(travel.rewind.workspace).toHaveText(workspace);
      await expect(travel.rewind.written).toContainText('src/greet.ts');
      await expect(readFileSync(join(workspace, 'src/greet.ts'), 'utf8')).toBe(GREET_V2);
      await app.screenshot(`codex-rewind-03-preview-${mode}-${scheme}`);
      await travel.rewind.apply.click();
      await expect(travel.rewind.result).toBeVisible({ timeout: 20_000 });
      expect(readFileSync(join(workspace, 'src/greet.ts'), 'utf8')).toBe(GREET_V1);
      expect(existsSync(join(workspace, 'notes.md'))).toBe(true);
      expect(existsSync(join(workspace, 'scratch.txt'))).toBe(true);
      await app.screenshot(`codex-rewind-04-rewound-${mode}-${scheme}`);

      await travel.rewind.undo.click();
      await expect(travel.rewind.undone).toBeVisible({ timeout: 20_000 });
      for (const [path, content] of rollout.finalFiles) {
        expect([path, existsSync(join(workspace, path)) ? readFileSync(join(workspace, path), 'utf8') : null]).toEqual([path, content]);
      }
      await app.screenshot(`codex-rewind-05-undone-${mode}-${scheme}`);
      await travel.rewind.close();
      await app.expectNoError();
    } finally {
      await arbor.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}
