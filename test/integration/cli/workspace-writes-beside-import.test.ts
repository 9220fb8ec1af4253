/**
 * Arbor's own writers take the store's writer turn (issue 13): a fork or a rewind in one process while an
 * import runs in another relied on SQLite's 30 s busy timeout alone, between the import's batches, and never
 * waited for the import's turn. Now each waits, saying what it waits for, and succeeds once, in a loop of runs
 * with real processes on one data folder.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../shared/model';
import type { ForkCreated } from '../../../shared/operations';
import { openBesideImport, type BesideImport } from './beside-import';
import type { CliDemo } from './run-cli';
import { runArbor, startArbor } from './spawned-cli';

const RUNS = 4;
let setup: BesideImport;
let demo: CliDemo;
let cli: BesideImport['cli'];
let corpus: string;

beforeAll(async () => {
  setup = await openBesideImport('arbor-writes-beside-import-', 21);
  ({ demo, cli, corpus } = setup);
}, 120_000);
afterAll(() => setup.remove());

const heldForImport = (): boolean => setup.heldForImport();

describe('workspace writes beside an import in another process', () => {
  it('a fork or a rewind during a long import waits for its turn and succeeds once, never "database is locked"', async () => {
    const env = { HOME: demo.home, CLAUDE_CONFIG_DIR: join(demo.root, 'claude-config') };
    const steps = demo.graph.nodes.filter((node) => !node.sidechain && node.kind === 'tool_call');
    expect(steps.length).toBeGreaterThan(1);
    let forks = 0;
    for (let run = 0; run < RUNS; run++) {
      // Fresh paths: every run's import has a whole corpus to read.
      const projects = join(demo.root, `projects-${run}`);
      mkdirSync(projects);
      cpSync(corpus, projects, { recursive: true });
      const importing = startArbor(cli.bundle, ['--data-dir', demo.dataDir, 'import', projects, '--json'], env);
      await expect.poll(heldForImport, { timeout: 60_000, interval: 10 }).toBe(true);
      const node = steps[run % steps.length]!.id;
      const args = run % 2 === 0 ? ['fork', node, '--to', join(demo.root, `fork-${run}`), '--json'] : ['rewind', node, '--json'];
      const write = await runArbor(cli.bundle, ['--data-dir', demo.dataDir, ...args], env);
      const imported = await importing.exited;

      expect(write.code, write.stderr).toBe(0);
      expect(write.stderr).toMatch(/^arbor: waiting for the import in arbor import \(process \d+\)…$/m);
      expect(write.stderr).not.toMatch(/locked|busy/i);
      expect(imported.code, imported.stderr).toBe(0);
      expect((JSON.parse(imported.stdout) as ImportReport).problems).toEqual([]);
      if (run % 2 === 0) {
        const created = JSON.parse(write.stdout) as ForkCreated;
        expect(existsSync(join(created.dir, 'package.json'))).toBe(true);
        forks++;
      } else {
        expect(JSON.parse(write.stdout)).toMatchObject({ operation: expect.any(String) });
      }
      rmSync(projects, { recursive: true, force: true });
    }
    // Each fork was recorded once: none failed half-way and none was written twice.
    const listed = await runArbor(cli.bundle, ['--data-dir', demo.dataDir, 'forks', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { forks: unknown[] }).forks).toHaveLength(forks);
  }, 600_000);
});
