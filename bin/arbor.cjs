#!/usr/bin/env node
// The `arbor` command. The sources are TypeScript (ESM syntax) in a CommonJS package: importing 'tsx'
// registers both its CommonJS and ESM hooks (what `node --import tsx` does), so require() of the .ts
// entry works and so do the CLI's lazy `import()`s (the service is loaded only by commands that need it).
'use strict';
const path = require('node:path');

function fail(error) {
  process.stderr.write(`arbor: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
}

import('tsx')
  .then(() => {
    const { main } = require(path.join(__dirname, '..', 'electron', 'cli', 'main.ts'));
    return main(process.argv.slice(2));
  })
  .then((code) => {
    process.exitCode = code;
  }, fail);
