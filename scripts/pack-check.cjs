#!/usr/bin/env node
// Offline packaging check (ELECTRON-SETUP.md §5): electron-builder --linux --dir against a stub Electron
// dist, then inspect app.asar: the built app is inside, better-sqlite3's .node is unpacked, and no
// renderer/tooling packages leaked into the installer. Real installers are built only on CI runners.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const REQUIRED_ENTRIES = ['/package.json', '/out/main/main.js', '/out/main/import-worker.js', '/out/main/import-write-worker.js', '/out/preload/preload.cjs', '/out/renderer/index.html'];
// Vite bundles the renderer's libraries; as node_modules they would only bloat the installer.
const FORBIDDEN_PACKAGES = ['react', 'react-dom', '@xyflow', 'zustand', 'vite', 'electron', 'electron-vite', 'esbuild', 'tsx', 'typescript', 'vitest', 'playwright-core'];
const NATIVE_MODULE = path.join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

function fail(message) {
  console.error(`pack-check: FAIL — ${message}`);
  process.exit(1);
}

/** A directory electron-builder accepts as `electronDist`: an executable, version, LICENSE, resources/ (no default_app.asar). */
function makeStubElectronDist(dir) {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'));
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stub Electron: packaging check only" >&2\nexit 1\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), version);
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'Stub Electron dist for the offline packaging check.\n');
  return version;
}

function forbiddenIn(entries) {
  // Every node_modules level counts: a nested copy (node_modules/x/node_modules/react) leaks just the same.
  return entries.filter((entry) =>
    [...entry.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].some(([, name]) =>
      FORBIDDEN_PACKAGES.some((bad) => name === bad || name.startsWith(`${bad}/`)),
    ),
  );
}

async function main() {
  for (const entry of REQUIRED_ENTRIES.slice(1)) {
    if (!fs.existsSync(path.join(ROOT, entry))) fail(`${entry.slice(1)} is missing — run \`npm run build\` first`);
  }
  if (!fs.existsSync(path.join(ROOT, NATIVE_MODULE))) fail(`${NATIVE_MODULE} is missing — run \`npm rebuild better-sqlite3\``);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pack-check-'));
  const started = Date.now();
  try {
    const stub = path.join(work, 'electron-dist');
    const output = path.join(work, 'release');
    const electronVersion = makeStubElectronDist(stub);
    const cli = path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js');
    const args = [
      cli, '--linux', '--dir', '--publish', 'never',
      '--config.npmRebuild=false',
      `--config.electronDist=${stub}`,
      `--config.electronVersion=${electronVersion}`,
      `--config.directories.output=${output}`,
    ];
    // npm's `nodedir` would point native rebuilds at Node headers (§4); nothing is rebuilt here, but keep it out.
    const env = { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' };
    delete env.npm_config_nodedir;
    const result = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 180_000 });
    if (result.status !== 0) {
      process.stderr.write(result.stdout ?? '');
      process.stderr.write(result.stderr ?? '');
      fail(`electron-builder exited with ${result.status ?? result.signal}`);
    }

    const resources = path.join(output, 'linux-unpacked', 'resources');
    const archive = path.join(resources, 'app.asar');
    if (!fs.existsSync(archive)) fail(`no app.asar in ${path.relative(work, resources)}`);
    const { listPackage } = await import('@electron/asar');
    const entries = listPackage(archive, { isPack: false }).map((entry) => entry.split(path.sep).join('/'));
    const missing = REQUIRED_ENTRIES.filter((entry) => !entries.includes(entry));
    if (missing.length > 0) fail(`app.asar lacks ${missing.join(', ')}`);
    const leaked = forbiddenIn(entries);
    if (leaked.length > 0) fail(`app.asar contains packages the app does not load: ${[...new Set(leaked.map((e) => e.split('/').slice(0, 4).join('/')))].slice(0, 10).join(', ')}`);
    const unpacked = path.join(resources, 'app.asar.unpacked', NATIVE_MODULE);
    if (!fs.existsSync(unpacked)) fail(`${NATIVE_MODULE} is not unpacked next to app.asar`);
    if (entries.some((entry) => entry.endsWith('.map'))) fail('app.asar contains source maps');

    const sizeMb = (fs.statSync(archive).size / 1024 / 1024).toFixed(1);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`pack-check: PASS — app.asar ${sizeMb} MB, ${entries.length} entries; out/main, out/preload, out/renderer inside; better_sqlite3.node unpacked; no renderer or tooling packages (${seconds} s)`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => fail(error && error.stack ? error.stack : String(error)));
}
module.exports = { forbiddenIn, makeStubElectronDist };
