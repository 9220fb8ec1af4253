import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const r = (p: string) => resolve(import.meta.dirname, p);

/**
 * Files that keep a fresh process each: app/ stubs the electron module and process listeners (main.test.ts); the
 * append-reads test counts the bytes its thread reads, which anything an earlier file left running would add to;
 * and the tests that race another process or thread for a turn (a write waiting for an import, an import's
 * SIGTERM, the hook hand-off, sessions.changed while the write worker goes on) run as they always have, so a lost
 * race is never the sharing's doing (workspace-writes-beside-import lost one at load 5 in a fresh process too).
 */
const OWN_PROCESS = [
  'test/unit/electron/app/**/*.test.ts',
  'test/integration/service/import-append-reads.test.ts',
  'test/integration/cli/workspace-writes-beside-import.test.ts',
  'test/integration/cli/import-special-files.test.ts',
  'test/integration/hooks/hook-handover.test.ts',
  'test/integration/service/import-run.test.ts',
  'test/integration/forget/forget-beside-import.test.ts',
  'test/integration/archive-move/archive-beside-writers.test.ts',
];

export default defineConfig({
  test: {
    // Groups run one after another (sequence.groupOrder). The unit and renderer files run two at a time on 2 cores:
    // pure code, no timing. The integration files run one at a time: they start workers and child processes of their
    // own, and with two files at a time their timing tests failed on a loaded machine.
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
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          alias: { electron: r('test/fakes/electron.ts') },
        },
      },
      {
        test: {
          name: 'node-integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          exclude: OWN_PROCESS,
          // Real SQLite, git, workers and child processes in temp dirs, but no module mocks, stubbed globals,
          // process listeners or env writes (grep for vi.mock, vi.stubGlobal, process.on, process.env before adding
          // one, or list the file in OWN_PROCESS): sharing a worker's loaded modules saves each file its start-up, ~0.4 s of CPU.
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          alias: { electron: r('test/fakes/electron.ts') },
          // One CLI bundle per run for the tests that spawn `arbor` (test/integration/cli/spawned-cli.ts).
          globalSetup: [r('test/setup/cli-bundle-folder.ts')],
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: OWN_PROCESS,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Only the Electron entry files import 'electron'; their tests get the fake (ELECTRON-SETUP.md §2).
          alias: { electron: r('test/fakes/electron.ts') },
          globalSetup: [r('test/setup/cli-bundle-folder.ts')],
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          include: ['test/unit/renderer/**/*.test.ts', 'test/unit/renderer/**/*.test.tsx'],
        },
      },
    ],
  },
});
