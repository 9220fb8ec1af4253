/**
 * `arbor delete` on a family of linked sessions (a parent, its fork, the session it continues in, and one that
 * follows that): dependants make a lone deletion refuse with their names, `--forks` takes them too; a dry run
 * changes nothing; a deleted transcript still on disk stays out of the next import until --include-deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDeleteOutcome } from '../../../shared/forget';
import type { SessionSummary } from '../../../shared/model';
import { runCliCaptured, type Run } from '../cli/run-cli';
import { CONTINUATION, FOLLOWER, FORK, PARENT, lineageFamily, writeLineageFamily } from '../import/lineage-family';

let root: string;
let paths: Record<string, string>;

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home') });
}

async function listed(): Promise<string[]> {
  const run = await cli(['ls', '--json']);
  return (JSON.parse(run.stdout) as { sessions: SessionSummary[] }).sessions.map((s) => s.id).sort();
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-delete-'));
  paths = writeLineageFamily(join(root, 'projects'), lineageFamily());
  expect((await cli(['import', ...Object.values(paths)])).code).toBe(0);
  expect(await listed()).toEqual([PARENT, FORK, CONTINUATION, FOLLOWER].sort());
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('arbor delete', () => {
  it('without --yes only lists what would go, and changes nothing', async () => {
    const run = await cli(['delete', FOLLOWER]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Would delete:\n {2}1 session: /);
    expect(run.stdout).toMatch(/Run again with --yes to delete\.\n$/);
    expect(run.stdout).toContain('still on disk: remembered as deleted');
    expect(await listed()).toHaveLength(4);
  });

  it('a dry run or a refusal of a session others go on from names them, with their titles and how they go on (as the dialog does), in text and --json', async () => {
    const titles = Object.fromEntries(
      (JSON.parse((await cli(['ls', '--json'])).stdout) as { sessions: SessionSummary[] }).sessions.map((s) => [s.id, s.title]),
    );
    const run = await cli(['delete', PARENT]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  2 sessions go on from it (their first steps are stored in it):\n');
    expect(run.stdout).toContain(`    ${FORK}  ${titles[FORK]}  (a fork of it)\n`);
    expect(run.stdout).toContain(`    ${CONTINUATION}  ${titles[CONTINUATION]}  (continues it)\n`);
    // Not the command that would be refused.
    expect(run.stdout).not.toContain('Run again with --yes to delete.');
    expect(run.stdout).toMatch(/run again with --forks --yes to delete them too\.\n$/);
    const json = JSON.parse((await cli(['delete', PARENT, '--json'])).stdout) as SessionDeleteOutcome;
    expect(json.status).toBe('preview');
    expect([...json.plan.dependants].sort((a, b) => a.sessionId.localeCompare(b.sessionId))).toEqual(
      [
        { sessionId: FORK, kind: 'fork', of: PARENT, title: titles[FORK] },
        { sessionId: CONTINUATION, kind: 'continues', of: PARENT, title: titles[CONTINUATION] },
      ].sort((a, b) => a.sessionId.localeCompare(b.sessionId)),
    );
    // The refusal lists them the same way.
    const refused = await cli(['delete', PARENT, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`    ${FORK}  ${titles[FORK]}  (a fork of it)\n`);
    expect(refused.stdout).toContain(`    ${CONTINUATION}  ${titles[CONTINUATION]}  (continues it)\n`);
    expect(await listed()).toHaveLength(4);
  });

  it('refuses to delete a session others go on from, naming them, and deletes nothing (exit 1)', async () => {
    const run = await cli(['delete', PARENT, '--yes', '--json']);
    expect(run.code).toBe(1);
    const outcome = JSON.parse(run.stdout) as SessionDeleteOutcome;
    expect(outcome.status).toBe('has-dependants');
    expect(outcome.plan.dependants.map((d) => d.sessionId).sort()).toEqual([CONTINUATION, FORK].sort());
    expect(run.stderr).toContain(FORK);
    expect(run.stderr).toContain('add --forks');
    expect(await listed()).toHaveLength(4);
    // The fork is still whole: its shared prefix is read from the parent's rows.
    const fork = await cli(['show', FORK, '--json']);
    expect(fork.code).toBe(0);
  });

  it('with --forks deletes the session and every session that goes on from it', async () => {
    const run = await cli(['delete', PARENT, '--forks', '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout) as SessionDeleteOutcome;
    expect(outcome.status).toBe('deleted');
    expect([...outcome.plan.sessionIds].sort()).toEqual([PARENT, FORK, CONTINUATION, FOLLOWER].sort());
    expect(await listed()).toEqual([]);
    expect((await cli(['show', FORK])).code).toBe(1);
  });

  it('deletes a session nothing goes on from alone; the session it follows stays readable', async () => {
    const before = JSON.parse((await cli(['show', CONTINUATION, '--json'])).stdout) as { nodes: { id: string; sessionId: string }[] };
    const run = await cli(['delete', FOLLOWER, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Deleted:\n/m);
    expect(run.stdout).toMatch(/^Reclaimed .+\.$/m);
    expect(await listed()).toEqual([PARENT, FORK, CONTINUATION].sort());
    // Its graph loses only the follower's own steps (the graph shows the sessions linked to it).
    const after = JSON.parse((await cli(['show', CONTINUATION, '--json'])).stdout) as { nodes: { id: string; sessionId: string }[] };
    expect(after.nodes.map((n) => n.id)).toEqual(before.nodes.filter((n) => n.sessionId !== FOLLOWER).map((n) => n.id));
    expect(after.nodes.some((n) => n.sessionId === CONTINUATION)).toBe(true);
  });

  it('remembers a deleted transcript: the next import skips it, --include-deleted brings it back', async () => {
    expect((await cli(['delete', FOLLOWER, '--yes'])).code).toBe(0);
    expect((await cli(['import', ...Object.values(paths)])).code).toBe(0);
    expect(await listed()).not.toContain(FOLLOWER);
    expect((await cli(['import', join(root, 'projects'), '--include-deleted'])).code).toBe(0);
    expect(await listed()).toContain(FOLLOWER);
  });

  it('says which ids name no session (exit 1)', async () => {
    const run = await cli(['delete', 'no-such-session', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('arbor: no session no-such-session');
  });
});
