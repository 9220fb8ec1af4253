/**
 * The desktop app itself, where an Electron binary exists (CI runners: the packaged app via ELECTRON_BIN and
 * ELECTRON_PACKAGED=1; dev machines: node_modules/electron). Skips with the reason elsewhere.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../../..');

/** Finds the binary without require('electron'), which would start a download. */
function electronBinary(): { path?: string; reason: string } {
  const fromEnv = process.env.ELECTRON_BIN;
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? { path: fromEnv, reason: '' } : { reason: `ELECTRON_BIN=${fromEnv} does not exist` };
  const pathFile = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return { reason: 'node_modules/electron/path.txt is missing (the binary was never downloaded)' };
  const binary = join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary, reason: '' } : { reason: `${binary} does not exist` };
}

const binary = electronBinary();

test.describe('Arbor desktop app', () => {
  test.skip(binary.path === undefined, `Electron binary not available here: ${binary.reason}`);

  test('opens its window with the sessions list through the named preload bridge', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbor-electron-e2e-'));
    const packaged = process.env.ELECTRON_PACKAGED === '1';
    const args = packaged ? [] : ['.', ...(process.platform === 'linux' ? ['--no-sandbox'] : [])];
    const app = await electron.launch({
      executablePath: binary.path as string,
      args,
      cwd: REPO_ROOT,
      env: { ...process.env, ARBOR_DATA_DIR: dataDir, HOME: join(dataDir, 'home'), CLAUDE_CONFIG_DIR: join(dataDir, 'home', '.claude') },
    });
    try {
      const window = await app.firstWindow();
      await expect(window).toHaveTitle(/Arbor/);
      await expect(window.getByTestId('session-list')).toBeVisible();
      // The preload bridge is the renderer's only door, and it is a named API, not ipcRenderer.
      const bridgeKeys = await window.evaluate(() => Object.keys((window as unknown as { arbor: object }).arbor).sort());
      expect(bridgeKeys).toEqual(['cancel', 'invoke', 'on']);
      const hasNode = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require !== 'undefined');
      expect(hasNode).toBe(false);
      const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
      expect(resolve(userData)).toBe(resolve(dataDir));
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
