/**
 * `arbor gc` and `arbor delete` take the store's writer turn like every writer (issue 15, as fork and rewind do
 * in cli/workspace-writes-beside-import.test.ts): run in one process while an import runs in another, each
 * waits for the import's turn, saying so, and succeeds once; the import finishes without a problem and the
 * deleted session stays gone.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GcReport, SessionDeleteOutcome } from '../../../shared/forget';
import type { ImportReport, SessionSummary } from '../../../shared/model';
import { openBesideImport, type BesideImport } from '../cli/beside-import';
import type { CliDemo } from '../cli/run-cli';
import { runArbor, startArbor } from '../cli/spawned-cli';

let setup: BesideImport;
let demo: CliDemo;
let cli: BesideImport['cli'];
let corpus: string;

beforeAll(async () => {
  setup = await openBesideImport('arbor-forget-beside-import-', 31);
  ({ demo, cli, corpus } = setup);
}, 120_000);
afterAll(() => setup.remove());

const heldForImport = (): boolean => setup.heldForImport();

describe('gc and delete beside an import in another process', () => {
  it('each waits for the import\'s turn and succeeds once, never "database is locked"', async () => {
    const env = { HOME: demo.home, CLAUDE_CONFIG_DIR: join(demo.root, 'claude-config') };
    const arbor = (args: string[]) => runArbor(cli.bundle, ['--data-dir', demo.dataDir, ...args], env);
    const doomed = demo.graph.session.id;
    for (const [run, args] of [['gc', '--json'], ['delete', doomed, '--forks', '--yes', '--json']].entries()) {
      const projects = join(demo.root, `projects-${run}`);
      mkdirSync(projects);
      cpSync(corpus, projects, { recursive: true });
      const importing = startArbor(cli.bundle, ['--data-dir', demo.dataDir, 'import', projects, '--json'], env);
      await expect.poll(heldForImport, { timeout: 60_000, interval: 10 }).toBe(true);
      const write = await arbor(args);
      const imported = await importing.exited;

      expect(write.code, write.stderr).toBe(0);
      expect(write.stderr).toMatch(/^arbor: waiting for the import in arbor import \(process \d+\)…$/m);
      expect(write.stderr).not.toMatch(/locked|busy/i);
      expect(imported.code, imported.stderr).toBe(0);
      expect((JSON.parse(imported.stdout) as ImportReport).problems).toEqual([]);
      if (args[0] === 'gc') {
        expect((JSON.parse(write.stdout) as GcReport).dryRun).toBe(false);
      } else {
        const outcome = JSON.parse(write.stdout) as SessionDeleteOutcome;
        expect(outcome.status).toBe('deleted');
        expect(outcome.plan.sessionIds).toEqual([doomed]);
      }
    }
    const listed = await arbor(['ls', '--json']);
    const ids = (JSON.parse(listed.stdout) as { sessions: SessionSummary[] }).sessions.map((s) => s.id);
    expect(ids).not.toContain(doomed);
    // The imports' sessions are all there (both copies of the corpus are the same sessions: one set).
    expect(ids.length).toBeGreaterThan(0);
  }, 600_000);
});
