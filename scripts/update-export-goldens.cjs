#!/usr/bin/env node
// Regenerates the export goldens (test/integration/export/goldens/) from the generated export session: run it
// after a deliberate change to an export format, then read the diff before committing it.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/integration/export/export-goldens.test.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, ARBOR_UPDATE_GOLDENS: '1' },
});
process.exit(result.status ?? 1);
