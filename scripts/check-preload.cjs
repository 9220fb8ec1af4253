#!/usr/bin/env node
// A sandboxed preload can only require('electron') and Electron's small polyfilled set, and cannot be an
// ES module (ELECTRON-SETUP.md §1). This guard fails the build if the bundled preload breaks either rule.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ALLOWED = new Set(['electron', 'events', 'timers', 'url', 'node:events', 'node:timers', 'node:url']);

/** Returns the list of problems found in the preload's source text. */
function checkPreloadSource(source) {
  const problems = [];
  const required = [...source.matchAll(/\brequire\(\s*(['"`])([^'"`]+)\1\s*\)/g)].map((m) => m[2]);
  const bad = [...new Set(required.filter((name) => !ALLOWED.has(name)))];
  if (bad.length > 0) problems.push(`requires modules a sandboxed preload cannot load: ${bad.join(', ')}`);
  if (/\brequire\(\s*[^'"`\s)]/.test(source)) problems.push('has a dynamic require()');
  const esm = [
    [/(?:^|[;}])\s*import\s*(?:[\w$]+\s*(?:,|from)|\{|\*|['"])/m, 'an import statement'],
    [/(?:^|[;}])\s*export\s*(?:\{|\*|default\b|const\b|let\b|var\b|function\b|class\b|async\b)/m, 'an export statement'],
    [/\bimport\s*\(/, 'a dynamic import()'],
    [/\bimport\.meta\b/, 'import.meta'],
  ];
  for (const [pattern, what] of esm) if (pattern.test(source)) problems.push(`contains ESM syntax (${what})`);
  return problems;
}

function main() {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'out', 'preload', 'preload.cjs'));
  if (!fs.existsSync(file)) {
    console.error(`check-preload: ${path.relative(process.cwd(), file)} does not exist; run electron-vite build first`);
    process.exit(1);
  }
  const problems = checkPreloadSource(fs.readFileSync(file, 'utf8'));
  if (problems.length > 0) {
    console.error(`check-preload: ${path.relative(process.cwd(), file)} is not sandbox-safe:`);
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exit(1);
  }
  console.log(`check-preload: ${path.relative(process.cwd(), file)} is sandbox-safe (CommonJS, requires only electron)`);
}

if (require.main === module) main();
module.exports = { checkPreloadSource };
