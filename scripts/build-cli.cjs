#!/usr/bin/env node
// Bundles the `arbor` CLI (its import worker, and the lean merge-file and hook entries) into out/cli/ with esbuild (arbor.js, import-worker.js, import-write-worker.js, merge-file.js, hook.js), so the command starts in
// ~0.1 s instead of compiling TypeScript through tsx on every run (hooks and scripts call it often).
// bin/arbor.cjs uses the bundle only while it is newer than every source file, so a stale build never runs.
'use strict';
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');

async function main() {
  const started = Date.now();
  const flag = process.argv.indexOf('--outdir');
  const outdir = flag > 0 ? path.resolve(process.argv[flag + 1]) : path.join(ROOT, 'out', 'cli');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      arbor: 'electron/cli/main.ts',
      // The lean entry bin/arbor.cjs runs for `arbor merge-file` (see electron/cli/merge-file-main.ts).
      'merge-file': 'electron/cli/merge-file-main.ts',
      // The lean entry for `arbor snapshot --hook`, which Claude Code waits for (electron/cli/hook-main.ts).
      hook: 'electron/cli/hook-main.ts',
      'import-worker': 'electron/importers/worker/import-worker.ts',
      // Imports store from this worker, on its own connection (electron/service/import-worker-host.ts).
      'import-write-worker': 'electron/service/import-write-worker.ts',
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Native and optional modules stay require()s resolved from node_modules at run time.
    external: ['better-sqlite3', 'bufferutil', 'utf-8-validate'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  process.stdout.write(`build-cli: ${path.relative(ROOT, path.join(outdir, 'arbor.js'))} bundled in ${Date.now() - started} ms\n`);
}

main().catch((error) => {
  process.stderr.write(`build-cli: ${error && error.message ? error.message : String(error)}\n`);
  process.exit(1);
});
