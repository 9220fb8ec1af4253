/**
 * The operation history in Chromium against `arbor serve`: a rewind applied and its dialog closed is
 * undone later from History (the files come back byte for byte), and the list says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });
test.setTimeout(120_000);

/** The demo's first prompt (electron/demo/demo-script.ts): before every edit, its state fully reconstructed. */
const FIRST_PROMPT = 'Add a --top N option to tally so it prints only the N most frequent words.';

test('undo a rewind from History after its dialog was closed', async ({ page, arbor }) => {
  const workspace = join(arbor.demo!.dir, 'workspace');
  const packageJson = join(workspace, 'package.json');
  const jsonFile = join(workspace, 'src', 'json.ts');
  const original = readFileSync(packageJson);
  const jsonOriginal = readFileSync(jsonFile);

  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  await app.open(arbor.url);
  await app.graph.waitForNodes();
  await app.search.search(FIRST_PROMPT);
  const target = await app.search.choose(app.search.hits.filter({ hasText: FIRST_PROMPT }).first());
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');

  await travel.rewindButton.click();
  await travel.rewind.apply.click();
  await expect(travel.rewind.result).toBeVisible({ timeout: 20_000 });
  expect(existsSync(jsonFile)).toBe(false);
  await travel.rewind.close();

  await travel.history.open.click();
  const rewind = travel.history.newest('rewind');
  await expect(travel.history.status(rewind)).toHaveText('applied');
  await expect(rewind).toContainText(workspace);
  await expect(rewind.getByTestId('history-counts')).toContainText('deleted');
  await app.screenshot('history-01-rewind-applied');

  await travel.history.undo(rewind).click();
  await expect(travel.history.undone(rewind)).toContainText(`put back in ${workspace}`, { timeout: 20_000 });
  await expect(travel.history.status(rewind)).toHaveText('undone');
  await expect(travel.history.undo(rewind)).toHaveCount(0);
  await expect(travel.history.status(travel.history.newest('undo'))).toHaveText('applied');
  expect(readFileSync(packageJson).equals(original)).toBe(true);
  expect(readFileSync(jsonFile).equals(jsonOriginal)).toBe(true);
  await app.screenshot('history-02-undone');

  // "Show in graph" goes back to the node the rewind went to.
  await rewind.getByTestId('history-show').click();
  await expect(travel.history.root).toHaveCount(0);
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
  await app.expectNoError();
});
