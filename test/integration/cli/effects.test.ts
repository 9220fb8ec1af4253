/** `arbor effects`: the ledger as text (a replay marked with its earlier request) and as JSON, by session prefix or node. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SideEffectLedger } from '../../../shared/side-effect-ledger';
import { COMMIT, LEDGER_SESSION_ID, PUSH, writeLedgerSession } from '../ledger/ledger-session';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
let cli: (args: string[]) => Promise<Run>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-effects-'));
  const home = join(root, 'home');
  const written = writeLedgerSession(home);
  cli = (args) => runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: home });
  expect((await cli(['import', written.projectsDir])).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor effects', () => {
  it('prints the ledger of a session by prefix, the replayed commit marked with the earlier request', async () => {
    const run = await cli(['effects', LEDGER_SESSION_ID.slice(0, 8)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Side effects of session 1ed6e500 \(every branch\): 7 steps, 2 without a recorded outcome, 2 possible double effects\n/);
    const lines = run.stdout.split('\n');
    const commits = lines.filter((line) => line.endsWith(COMMIT));
    expect(commits).toHaveLength(2);
    expect(commits[0]).toMatch(/  git commit +requested, outcome not recorded  /);
    const earlier = commits[0]!.split(/\s{2,}/)[1]!;
    const replay = lines[lines.indexOf(commits[1]!) + 1]!;
    expect(replay).toBe(`    ! Possible double effect: git commit requested again; the earlier request has no recorded outcome and may have run. Earlier: ${earlier} (requested, outcome not recorded)`);
    expect(lines.find((line) => line.endsWith(PUSH))).toMatch(/  git push +requested, outcome not recorded  /);
  });

  it('--json prints the ledger as the service answers it', async () => {
    const run = await cli(['effects', LEDGER_SESSION_ID, '--json']);
    expect(run.code).toBe(0);
    const ledger = JSON.parse(run.stdout) as SideEffectLedger;
    expect(ledger.sessionId).toBe(LEDGER_SESSION_ID);
    expect(ledger.entries.filter((entry) => entry.replayOf !== null).map((entry) => entry.replayOf!.reason)).toEqual(['missing-outcome', 'retry']);
  });

  it('a node id lists the branch through it; an unknown target fails with exit 1', async () => {
    const ledger = JSON.parse((await cli(['effects', LEDGER_SESSION_ID, '--json'])).stdout) as SideEffectLedger;
    const node = ledger.entries[0]!.nodeId;
    const run = await cli(['effects', node]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Side effects of the branch through ${node.slice(0, 8)}: `));
    expect(run.stdout).toContain('(after)');
    expect((await cli(['effects', 'nothing-like-this'])).code).toBe(1);
  });
});
