/**
 * Time travel in Chromium against `arbor serve`, on the demo session: the files at a node, a comparison
 * of two nodes, a rewind previewed, applied (the file changes on disk) and undone (byte for byte), and a
 * fork that adds a branch to the graph and a new folder on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';
import { TimeTravel } from '../pages/time-travel';

test.use({ arborOptions: { demo: true } });
// Each test starts its own server with a fresh demo, then reconstructs, rewinds and forks on 2 shared cores.
test.setTimeout(180_000);

/**
 * The demo's prompts (electron/demo/demo-script.ts). The first comes before every edit and every shell
 * command (its state is reconstructed, fully known); the README edit comes between the other two.
 */
const FIRST_PROMPT = 'Add a --top N option to tally so it prints only the N most frequent words.';
const DOCUMENT_PROMPT = 'Document --top and --json in the README.';
const BUMP_PROMPT = 'Bump the version to 0.2.0 and publish it to npm.';

async function openDemo(app: ArborApp): Promise<void> {
  await app.graph.waitForNodes();
  await expect(app.sessions.rows).toHaveCount(1);
}

async function selectPrompt(app: ArborApp, text: string): Promise<string> {
  await app.search.search(text);
  const target = await app.search.choose(app.search.hits.filter({ hasText: text }).first());
  await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
  expect(await app.inspector.kindName()).toBe('user');
  return target.nodeId;
}

test('see the files at a node, compare two nodes, rewind the workspace and undo it', async ({ page, arbor }) => {
  const workspace = join(arbor.demo!.dir, 'workspace');
  const packageJson = join(workspace, 'package.json');
  const original = readFileSync(packageJson);
  expect(original.toString()).toContain('"version": "0.2.0"');

  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  await app.open(arbor.url);
  await openDemo(app);
  // How each node's state is known arrives after the graph is on screen.
  await expect(travel.stateMarkers.first()).toBeVisible({ timeout: 20_000 });

  // Compare: the README prompt, Shift+click the version prompt below it.
  const documentNode = await selectPrompt(app, DOCUMENT_PROMPT);
  const bump = app.graph.nodesOfKind('user').filter({ hasText: BUMP_PROMPT });
  await travel.compareWith(bump);
  await expect(app.graph.node(documentNode)).toHaveAttribute('data-selected', 'true');
  await expect(travel.compare.bar).toContainText(DOCUMENT_PROMPT);
  await app.screenshot('time-travel-01-compare-marked');
  await travel.compare.openButton.click();
  await expect(travel.compare.files.filter({ hasText: 'README.md' })).toBeVisible();
  await expect(travel.compare.diff).toHaveAttribute('data-layout', 'split');
  await expect(travel.compare.diff).toContainText('--json');
  await app.screenshot('time-travel-02-compare-split');
  await travel.compare.layout('Unified');
  await expect(travel.compare.diff).toHaveAttribute('data-layout', 'unified');
  await app.screenshot('time-travel-03-compare-unified');
  await travel.compare.close();
  await travel.compare.bar.getByLabel('Stop comparing').click();
  await expect(travel.compare.bar).toHaveCount(0);

  // The files at the first prompt: package.json is 0.1.0 there, src/json.ts does not exist yet.
  const firstNode = await selectPrompt(app, FIRST_PROMPT);
  await travel.files.tab.click();
  await expect(travel.files.known).toHaveAttribute('data-known', 'reconstructed');
  await expect(travel.files.treeFile('package.json')).toBeVisible();
  await expect(travel.files.treeFile('src/json.ts')).toHaveCount(0);
  await app.screenshot('time-travel-04-files');
  await travel.files.treeFile('package.json').click();
  await expect(travel.files.viewer).toContainText('"version": "0.1.0"');
  await app.screenshot('time-travel-05-file');
  await travel.files.back();

  // Rewind to it: the preview first, then apply, then the files on disk are as they were there.
  const jsonFile = join(workspace, 'src', 'json.ts');
  const jsonOriginal = readFileSync(jsonFile);
  await app.graph.root.focus();
  await page.keyboard.press('r');
  await expect(travel.rewind.preview).toBeVisible({ timeout: 20_000 });
  await expect(travel.rewind.workspace).toHaveText(workspace);
  await expect(travel.rewind.written).toContainText('package.json');
  await expect(travel.rewind.deleted).toContainText('src/json.ts');
  // Every file is known at the first prompt (the demo's checks before its build are read-only): nothing unverified.
  await expect(travel.rewind.unverified).toHaveCount(0);
  expect(readFileSync(packageJson).equals(original)).toBe(true);
  await app.screenshot('time-travel-06-rewind-preview');
  await travel.rewind.apply.click();
  await expect(travel.rewind.result).toBeVisible({ timeout: 20_000 });
  expect(readFileSync(packageJson, 'utf8')).toContain('"version": "0.1.0"');
  expect(existsSync(jsonFile)).toBe(false);
  await app.screenshot('time-travel-07-rewound');

  // Undo: every file back byte for byte.
  await travel.rewind.undo.click();
  await expect(travel.rewind.undone).toBeVisible({ timeout: 20_000 });
  expect(readFileSync(packageJson).equals(original)).toBe(true);
  expect(readFileSync(jsonFile).equals(jsonOriginal)).toBe(true);
  await app.screenshot('time-travel-08-undone');
  await travel.rewind.close();
  await expect(app.graph.node(firstNode)).toHaveAttribute('data-selected', 'true');
  await app.expectNoError();
});

test('fork from a node: a new branch in the graph and a new folder on disk, listed and removable', async ({ page, arbor }) => {
  const app = new ArborApp(page);
  const travel = new TimeTravel(page);
  await app.open(arbor.url);
  await openDemo(app);
  await selectPrompt(app, DOCUMENT_PROMPT);

  await travel.forkButton.click();
  await expect(travel.fork.root).toBeVisible();
  await app.screenshot('time-travel-09-fork-dialog');
  await travel.fork.create.click();
  await expect(travel.fork.created).toBeVisible({ timeout: 30_000 });
  const dir = (await travel.fork.dir.textContent()) ?? '';
  expect(existsSync(join(dir, 'README.md'))).toBe(true);
  // The fork is at the README prompt: the README does not document the options yet.
  expect(readFileSync(join(dir, 'README.md'), 'utf8')).not.toContain('--json');
  await expect(travel.fork.resume).toContainText('claude --resume');
  await expect(travel.fork.resume).toContainText(dir);
  await app.screenshot('time-travel-10-forked');
  await travel.fork.close();

  // The new branch is in the graph, selected.
  const branch = app.graph.selected();
  await expect(branch).toHaveAttribute('data-workspace-kind', 'fork');
  await app.screenshot('time-travel-11-fork-branch');

  await travel.forks.open.click();
  const row = travel.forks.row(dir);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('fork-size')).toHaveText(/\d+(\.\d)? (B|KB|MB)/);
  await app.screenshot('time-travel-12-forks');
  await travel.forks.remove(row);
  await expect(row).toHaveCount(0);
  expect(existsSync(dir)).toBe(false);
  await app.expectNoError();
});
