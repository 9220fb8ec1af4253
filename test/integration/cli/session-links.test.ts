/**
 * `arbor ls` and `arbor show` say a session's links (issue 13): "forked from <title> (<short id>) at <step>",
 * "continued in …", "continues …", "follows …", plain and in `--json`, and a hostile title reaches the
 * terminal inert. They printed none before.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONTINUATION, FOLLOWER, FORK, lineageFamily, PARENT, writeLineageFamily } from '../import/lineage-family';
import { runCliCaptured, type Run } from './run-cli';

const ESC = '\u001b';
let root: string;
let cli: (args: string[]) => Promise<Run>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-links-'));
  mkdirSync(join(root, 'home'));
  cli = (args) => runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: join(root, 'home') });
  writeLineageFamily(join(root, 'projects'), lineageFamily({ parentPrompt: `write the parser${ESC}]0;pwned${ESC}\\` }));
  const imported = await cli(['import', join(root, 'projects')]);
  expect(imported.code).toBe(0);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const short = (id: string) => id.slice(0, 8);

it('arbor ls prints each session\'s links under its row, inert', async () => {
  const run = await cli(['ls']);
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain(ESC);
  const lines = run.stdout.split('\n');
  const rowOf = (id: string) => lines.findIndex((line) => line.startsWith(id.slice(0, 4)) && line.includes(id.slice(0, 2)));
  const under = (id: string) => {
    const start = lines.findIndex((line) => /^\S/.test(line) && id.startsWith(line.split(' ')[0]!));
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((line) => !/^\s+↳ /.test(line));
    return rest.slice(0, end).map((line) => line.trim());
  };
  expect(rowOf(PARENT)).toBeGreaterThan(0);
  const parentTitle = 'write the parser␛]0;pwned␛\\';
  expect(under(FORK)).toEqual([expect.stringMatching(new RegExp(`^↳ forked from write the parser.*\\(${short(PARENT)}\\) at step [0-9a-f]{8}$`))]);
  expect(under(FORK)[0]).toContain(parentTitle);
  expect(under(PARENT)).toEqual([expect.stringMatching(new RegExp(`^↳ forked into try a streaming parser instead \\(${short(FORK)}\\) at step [0-9a-f]{8}$`)), `↳ continued in keep going in the background (${short(CONTINUATION)})`]);
  expect(under(CONTINUATION)).toEqual([`↳ continues ${parentTitle} (${short(PARENT)})`, `↳ followed by Implement the following plan: tests (${short(FOLLOWER)})`]);
  expect(under(FOLLOWER)).toEqual([`↳ follows keep going in the background (${short(CONTINUATION)})`]);
});

it('arbor ls --json keeps the links and says them in words', async () => {
  const run = await cli(['ls', '--json']);
  const { sessions } = JSON.parse(run.stdout) as { sessions: { id: string; links?: unknown[]; lineage?: string[] }[] };
  const follower = sessions.find((s) => s.id === FOLLOWER)!;
  expect(follower.links).toEqual([{ kind: 'follows', direction: 'earlier', sessionId: CONTINUATION, title: 'keep going in the background', nodeId: null }]);
  expect(follower.lineage).toEqual([`follows keep going in the background (${short(CONTINUATION)})`]);
  expect(sessions.find((s) => s.id === FORK)!.lineage).toEqual([expect.stringMatching(/^forked from write the parser\u001b\]0;pwned\u001b\\ \(2a7c0000\) at step [0-9a-f]{8}$/)]);
});

it('arbor show says the fork point by its label, plain and in --json', async () => {
  const plain = await cli(['show', FORK]);
  expect(plain.code).toBe(0);
  expect(plain.stdout).not.toContain(ESC);
  expect(plain.stdout).toMatch(new RegExp(`^Lineage:    forked from write the parser␛\\]0;pwned␛\\\\ \\(${short(PARENT)}\\) at “Wrote parser.ts.”$`, 'm'));
  const json = JSON.parse((await cli(['show', PARENT, '--json'])).stdout) as { session: { lineage: string[] } };
  expect(json.session.lineage).toEqual([`forked into try a streaming parser instead (${short(FORK)}) at “Wrote parser.ts.”`, `continued in keep going in the background (${short(CONTINUATION)})`]);
});
