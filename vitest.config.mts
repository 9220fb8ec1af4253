import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const r = (p: string) => resolve(import.meta.dirname, p);

export default defineConfig({
  test: {
    // One file at a time on 2 cores (vitest's default, cores − 1): integration files start workers and child
    // processes of their own, and with two files at a time their timing tests failed on a loaded machine.
    projects: [
      {
        test: {
          name: 'node-unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          // app/ stubs the electron module and process listeners (main.test.ts): it keeps a fresh module graph.
          exclude: ['test/unit/renderer/**', 'test/unit/electron/app/**'],
          // Pure code and temp-dir stores, no module mocks or globals (grep before adding one): the files share a
          // worker's loaded modules instead of importing them again, ~1–2 s a file on 2 busy cores.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          alias: { electron: r('test/fakes/electron.ts') },
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/electron/app/**/*.test.ts', 'test/integration/**/*.test.ts'],
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
