#!/usr/bin/env node
// The `arbor` command. Runs the esbuild bundle (out/cli/arbor.js, made by `npm run build`) when it is newer
// than every source file — start-up ~0.1 s, which hooks and scripts need — else the TypeScript sources through
// tsx. Importing 'tsx' registers both its CommonJS and ESM hooks (what `node --import tsx` does), so require()
// of the .ts entry works and so do the CLI's lazy `import()`s. ARBOR_CLI_FROM_SOURCE=1 forces the sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
// ARBOR_CLI_BUNDLE points at another bundle (tests build theirs in a temp folder).
const BUNDLE = process.env.ARBOR_CLI_BUNDLE || path.join(ROOT, 'out', 'cli', 'arbor.js');
const SOURCE_DIRS = ['electron', 'shared'].map((dir) => path.join(ROOT, dir));

function fail(error) {
  process.stderr.write(`arbor: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
}

/** True when some source file (or package.json) changed after the bundle was built. */
function bundleIsStale(bundleMtime) {
  if (fs.statSync(path.join(ROOT, 'package.json')).mtimeMs > bundleMtime) return true;
  const stack = [...SOURCE_DIRS];
  while (stack.length > 0) {
    const dir = stack.pop();
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.name.endsWith('.ts') && fs.statSync(full).mtimeMs > bundleMtime) return true;
    }
  }
  return false;
}

function bundleToRun() {
  if (process.env.ARBOR_CLI_FROM_SOURCE === '1') return null;
  let stat;
  try {
    stat = fs.statSync(BUNDLE);
  } catch {
    return null;
  }
  return bundleIsStale(stat.mtimeMs) ? null : BUNDLE;
}

// `arbor merge-file` (called like `git merge-file`, once per file) and the installed hook's exact command line
// (`[--data-dir DIR] snapshot --hook`, after every tool call) have lean bundles of their own beside the main one.
const argv = process.argv.slice(2);
const mainBundle = bundleToRun();
function leanEntry() {
  if (argv[0] === 'merge-file') return 'merge-file.js';
  const hook = argv.length === 2 ? argv : argv[0] === '--data-dir' && argv.length === 4 ? argv.slice(2) : [];
  return hook[0] === 'snapshot' && hook[1] === '--hook' ? 'hook.js' : null;
}
const lean = mainBundle ? leanEntry() : null;
const leanBundle = lean ? path.join(path.dirname(mainBundle), lean) : null;
const bundle = leanBundle && fs.existsSync(leanBundle) ? leanBundle : mainBundle;
if (process.env.ARBOR_CLI_TRACE === '1') process.stderr.write(`arbor: running ${bundle ? path.basename(bundle) : 'from sources'}\n`);
const entry = bundle
  ? Promise.resolve(require(bundle))
  : import('tsx').then(() => require(path.join(ROOT, 'electron', 'cli', 'main.ts')));

entry
  .then(({ main }) => main(argv))
  .then((code) => {
    process.exitCode = code;
  }, fail);
