import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const r = (p: string) => resolve(import.meta.dirname, p);

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The import's parse worker and write worker run from their own files beside main.js
        // (electron/importers/worker/parse-worker.ts, electron/service/import-worker-host.ts).
        input: {
          main: r('electron/main.ts'),
          'import-worker': r('electron/importers/worker/import-worker.ts'),
          'import-write-worker': r('electron/service/import-write-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can only require('electron'): bundle everything else into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: { input: { preload: r('electron/preload.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react()],
    // Minified: the renderer ships to every window (and over `arbor serve`); 1.7 MB unminified is waste.
    build: { outDir: 'out/renderer', minify: true, rollupOptions: { input: r('renderer/index.html') } },
    worker: { format: 'es' },
  },
});
