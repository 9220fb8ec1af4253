#!/usr/bin/env node
// `npm start`: the desktop app when this machine can run it, else Arbor in the browser via `arbor serve`.
// Never require('electron') here: with electron ≥42 that starts a binary download (ELECTRON-SETUP.md §2).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');

/** The Electron binary installed in node_modules, or undefined (with the reason) when there is none. */
function findElectronBinary(root = ROOT) {
  if (process.env.ELECTRON_BIN && fs.existsSync(process.env.ELECTRON_BIN)) return { binary: process.env.ELECTRON_BIN };
  const pathFile = path.join(root, 'node_modules', 'electron', 'path.txt');
  if (!fs.existsSync(pathFile)) return { reason: 'Electron binary not available on this machine' };
  const binary = path.join(root, 'node_modules', 'electron', 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? { binary } : { reason: 'Electron binary not available on this machine' };
}

/** macOS and Windows always have a display; Linux needs X11 or Wayland. */
function hasDisplay(platform = process.platform, env = process.env) {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function run(command, args) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  // Ctrl-C reaches the child through the terminal; forward a plain SIGTERM (e.g. from a supervisor) too.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function main() {
  const found = findElectronBinary();
  const display = hasDisplay();
  if (found.binary && display) {
    run(found.binary, ['.']);
    return;
  }
  const why = found.binary ? 'No display available (DISPLAY/WAYLAND_DISPLAY unset)' : found.reason;
  console.log(`${why} — serving Arbor in your browser instead`);
  run(process.execPath, [path.join(ROOT, 'bin', 'arbor.cjs'), 'serve', ...process.argv.slice(2)]);
}

if (require.main === module) main();
module.exports = { findElectronBinary, hasDisplay };
