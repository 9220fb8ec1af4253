/**
 * `arbor export`: to stdout, to a file (never over an existing one without --force), findings on stderr
 * masked and all redacted, --redactions keeps the ones it names, --no-redact warns.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_SESSION_ID, writeExportSession, type WrittenExportSession } from '../export/export-session';
import { runCliCaptured, type Run } from './run-cli';

let root: string;
let written: WrittenExportSession;
let cli: (args: string[]) => Promise<Run>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-export-'));
  const home = join(root, 'home');
  written = writeExportSession(home);
  cli = (args) => runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: home });
  const imported = await cli(['import', written.projectsDir]);
  expect(imported.code).toBe(0);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const findingIds = (stderr: string): string[] => [...stderr.matchAll(/^ {2}(?:redacted|kept) +([0-9a-f]{16}) /gm)].map((match) => match[1]!);

describe('arbor export', () => {
  it('prints the Markdown export of a session (by prefix) on stdout, the findings masked on stderr', async () => {
    const run = await cli(['export', EXPORT_SESSION_ID.slice(0, 8)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# Deploy shipit with/);
    expect(run.stdout).toContain('[REDACTED:secretlint/github]');
    expect(run.stderr).toMatch(/^\d+ secrets found:/);
    expect(findingIds(run.stderr).length).toBeGreaterThan(5);
    for (const secret of [written.secrets.githubToken, written.secrets.envPassword, written.secrets.slackToken]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  });

  it('writes --out FILE and refuses to replace it, unless --force', async () => {
    const out = join(root, 'session.html');
    const first = await cli(['export', EXPORT_SESSION_ID, '--format', 'html', '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain(`Wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    writeFileSync(out, 'mine');
    const again = await cli(['export', EXPORT_SESSION_ID, '--format', 'html', '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect((await cli(['export', EXPORT_SESSION_ID, '--format', 'html', '--out', out, '--force'])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('leaves the findings --redactions names as they are', async () => {
    const listed = await cli(['export', EXPORT_SESSION_ID, '--format', 'json']);
    const slackLine = listed.stderr.split('\n').find((line) => line.includes('secretlint/slack'))!;
    const slackId = findingIds(`${slackLine}\n`)[0]!;
    const keep = join(root, 'keep.json');
    writeFileSync(keep, JSON.stringify([slackId]));
    const run = await cli(['export', EXPORT_SESSION_ID, '--format', 'json', '--redactions', keep]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(written.secrets.slackToken);
    expect(run.stdout).not.toContain(written.secrets.githubToken);
    expect(run.stderr).toContain(`kept     ${slackId}`);
  });

  it('--no-redact writes the secrets and warns', async () => {
    const run = await cli(['export', EXPORT_SESSION_ID, '--no-redact']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: exporting without redaction/);
    expect(run.stdout).toContain(written.secrets.githubToken);
  });

  it('rejects a format it does not know (exit 2) and a target that is nothing (exit 1)', async () => {
    expect((await cli(['export', EXPORT_SESSION_ID, '--format', 'pdf'])).code).toBe(2);
    expect((await cli(['export', 'zzzz-no-such'])).code).toBe(1);
  });
});
