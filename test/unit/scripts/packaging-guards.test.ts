/** The build guards in scripts/: the sandboxed-preload check and the installer content check. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const load = createRequire(__filename);
const { checkPreloadSource } = load('../../../scripts/check-preload.cjs') as { checkPreloadSource(source: string): string[] };
const { forbiddenIn } = load('../../../scripts/pack-check.cjs') as { forbiddenIn(entries: string[]): string[] };
const { hasDisplay } = load('../../../scripts/start.cjs') as { hasDisplay(platform: string, env: Record<string, string>): boolean };

describe('check-preload', () => {
  it('accepts a CommonJS bundle that requires only electron', () => {
    expect(checkPreloadSource('"use strict";\nconst electron = require("electron");\nelectron.contextBridge.exposeInMainWorld("arbor", {});\n')).toEqual([]);
    expect(checkPreloadSource('const { EventEmitter } = require("events"); const t = require("timers");')).toEqual([]);
  });
  it('rejects other requires, dynamic requires and ESM syntax', () => {
    expect(checkPreloadSource('require("../shared/api")')[0]).toContain('../shared/api');
    expect(checkPreloadSource('require("fs")')[0]).toContain('fs');
    expect(checkPreloadSource('require(name)')).toEqual(['has a dynamic require()']);
    expect(checkPreloadSource('import { contextBridge } from "electron";')[0]).toContain('import statement');
    expect(checkPreloadSource('const a = 1;export { a };')[0]).toContain('export statement');
    expect(checkPreloadSource('import("electron")')[0]).toContain('dynamic import()');
    expect(checkPreloadSource('console.log(import.meta.url)')[0]).toContain('import.meta');
  });
  it('does not mistake words for syntax', () => {
    expect(checkPreloadSource('const label = "export default settings"; // import data from files')).toEqual([]);
  });
});

describe('pack-check', () => {
  it('flags renderer and tooling packages at any node_modules depth', () => {
    const entries = ['/node_modules/react/index.js', '/node_modules/@xyflow/react/x.js', '/node_modules/reactive/x', '/node_modules/isomorphic-git/a.js', '/node_modules/a/node_modules/vite/b.js', '/out/renderer/react.js'];
    expect(forbiddenIn(entries)).toEqual(['/node_modules/react/index.js', '/node_modules/@xyflow/react/x.js', '/node_modules/a/node_modules/vite/b.js']);
  });
});

describe('npm start display detection', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY on Linux only', () => {
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: ':0' })).toBe(true);
    expect(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(hasDisplay('darwin', {})).toBe(true);
    expect(hasDisplay('win32', {})).toBe(true);
  });
});
