/**
 * E2E: `web-chromium` drives Debian's Chromium against `arbor serve` (works on the offline build machines);
 * `electron` drives the desktop app where an Electron binary exists (CI runners), and skips elsewhere.
 * Specs start their own server through test/e2e/fixtures/arbor-server.ts (a temp data dir per test).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  // Two spec files at a time: each test has its own server and data dir (fixtures/arbor-server.ts), and one
  // test at a time left a core idle while its server started, its import ran or the page waited on the server.
  // A file's tests stay in one worker, in order.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results/e2e',
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    {
      name: 'web-chromium',
      testMatch: 'web/**/*.spec.ts',
      use: {
        browserName: 'chromium',
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          // No --user-data-dir: launch() already uses a fresh temporary profile (ELECTRON-SETUP.md §3).
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--disable-quic',
          ],
        },
      },
    },
    {
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts',
    },
  ],
});
