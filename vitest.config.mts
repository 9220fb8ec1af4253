import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const r = (p: string) => resolve(import.meta.dirname, p);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['test/unit/renderer/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Only the Electron entry files import 'electron'; their tests get the fake (ELECTRON-SETUP.md §2).
          alias: { electron: r('test/fakes/electron.ts') },
          // One CLI bundle per run for the tests that spawn `arbor` (test/integration/cli/spawned-cli.ts).
          globalSetup: [r('test/setup/cli-bundle-folder.ts')],
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/unit/renderer/**/*.test.ts', 'test/unit/renderer/**/*.test.tsx'],
        },
      },
    ],
  },
});
