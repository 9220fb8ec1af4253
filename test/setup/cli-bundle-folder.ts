/**
 * vitest globalSetup: one folder per run for the CLI bundle that the tests spawning `arbor` share
 * (test/integration/cli/spawned-cli.ts builds it there when the first of them asks). Each of them built its own
 * (~1.3 s of esbuild each, seven files); removed when the run ends, so no run ever starts another run's build.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's shared CLI bundle is built (inside the repository, so it resolves node_modules). */
    cliBundleFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const out = resolve(import.meta.dirname, '../../out');
  mkdirSync(out, { recursive: true });
  const folder = mkdtempSync(join(out, 'cli-test-run-'));
  project.provide('cliBundleFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
