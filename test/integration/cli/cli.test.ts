/**
 * The `arbor` CLI end to end, in-process through runCli, against the real service in temp folders.
 * Exit codes: 0 ok, 1 failure (`arbor: reason [CODE]`), 2 usage, 130 interrupted.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliOptions } from '../../../electron/cli/main';
import { runCliCaptured, type Run } from './run-cli';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const hasCorpus = existsSync(CORPUS);

let root: string;
let home: string;

function cli(args: string[], options: Partial<CliOptions> & { env?: Record<string, string> } = {}): Promise<Run> {
  const { env, ...rest } = options;
  return runCliCaptured(args, { cwd: root, homeDir: home, ...(env === undefined ? {} : { env }) }, rest);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-cli-'));
  home = join(root, 'home');
  mkdirSync(home);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor usage and help', () => {
  it('lists every command for --help and prints the version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['import', 'ls', 'show', 'tree', 'search', 'merge-file', 'serve', 'demo']) expect(help.stdout).toMatch(new RegExp(`^  ${name}\\s`, 'm'));
    const version = await cli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('shows a command help with --help or -h anywhere after it', async () => {
    for (const args of [['show', '--help'], ['show', 'x', '-h'], ['--data-dir', 'd', 'tree', '--help']]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: arbor (show|tree) /);
    }
  });

  it('exits 2 with usage on stderr for bad usage', async () => {
    for (const args of [[], ['frobnicate'], ['ls', '--bogus'], ['show'], ['show', 'a', 'b'], ['--nope', 'ls'], ['serve', '--port', 'x'], ['search', '  ']]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Usage: arbor');
    }
  });
});

describe('arbor with a store', () => {
  const dataDir = (): string => join(root, 'data');
  let sessionId = '';

  it('demo creates and imports a session, printing where it went', async () => {
    const run = await cli(['demo', '--json', '--data-dir', dataDir()]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { sessionId: string; dir: string };
    expect(statSync(result.dir).isDirectory()).toBe(true);
    sessionId = result.sessionId;
    const human = await cli(['demo', join(root, 'demo2'), '--data-dir', dataDir()]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Demo written to ${join(root, 'demo2')}`);
    expect(human.stdout).toMatch(/Session: [0-9a-f-]{36}/);
  });

  it('ls lists sessions as JSON and as an aligned table', async () => {
    const json = await cli(['ls', '--json', '--data-dir', dataDir()]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { sessions: { id: string; nodeCount: number }[]; total: number };
    expect(parsed.total).toBe(parsed.sessions.length);
    expect(parsed.sessions.map((s) => s.id)).toContain(sessionId);
    const table = await cli(['ls'], { env: { ARBOR_DATA_DIR: dataDir() } });
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+DATE\s+NODES\s+TITLE$/);
    expect(lines).toHaveLength(1 + parsed.sessions.length);
    expect(table.stdout).toContain(sessionId.slice(0, 8));
  });

  it('show --json prints exactly {session, nodes}, by full id or unique prefix', async () => {
    const run = await cli(['show', sessionId.slice(0, 6), '--json', '--data-dir', dataDir()]);
    expect(run.code).toBe(0);
    const graph = JSON.parse(run.stdout) as { session: { id: string; nodeCount: number }; nodes: { id: string; kind: string }[] };
    expect(Object.keys(graph).sort()).toEqual(['nodes', 'session']);
    expect(graph.session.id).toBe(sessionId);
    expect(graph.nodes.length).toBe(graph.session.nodeCount);
    const human = await cli(['show', sessionId, '--data-dir', dataDir()]);
    expect(human.stdout).toContain(`Session:    ${sessionId}`);
  });

  it('show fails with exit 1 and one line naming the code for an unknown session', async () => {
    const run = await cli(['show', 'ffffffff-no-such', '--data-dir', dataDir()]);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^arbor: .*\[NOT_FOUND\]\n$/);
  });

  it('tree draws the session with branch connectors and tool outcome marks', async () => {
    const run = await cli(['tree', sessionId, '--data-dir', dataDir()]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toContain(sessionId);
    expect(run.stdout).toMatch(/^\s*[│ ]*[├└]─ \[user\]/m); // the demo edits a prompt: a real fork
    expect(run.stdout).toContain('✗'); // and one tool call fails
  });

  it('search finds text of an imported session', async () => {
    const run = await cli(['search', 'tally', '--json', '--data-dir', dataDir()]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { hits: { sessionId: string }[]; indexing: boolean };
    expect(result.indexing).toBe(false);
    expect(result.hits.some((h) => h.sessionId === sessionId)).toBe(true);
    const none = await cli(['search', 'zzqqxxnotaword', '--data-dir', dataDir()]);
    expect(none).toMatchObject({ code: 0, stdout: 'No matches for "zzqqxxnotaword".\n' });
  });

  it('reports interruption with exit 130', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await cli(['import', join(root, 'demo2'), '--data-dir', dataDir()], { signal: controller.signal });
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('arbor: interrupted\n');
  });
});

describe.skipIf(!hasCorpus)('arbor import (real transcripts from ../shared/corpus)', () => {
  it('prints the ImportReport JSON with exactly its fields, and search works right after', async () => {
    const dataDir = join(root, 'corpus-data');
    const files = ['claude-code-log/fixtures/dag_fork.jsonl', 'claude-code-log/fixtures/edit_tool.jsonl', 'ccusage/chat.jsonl'].map((f) => join(CORPUS, f));
    const run = await cli(['import', ...files, join(root, 'missing.jsonl'), '--json', '--data-dir', dataDir]);
    // The missing path was not imported: the report is printed, and the run does not claim success.
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('arbor: 1 path not imported (see the problems above)\n');
    const report = JSON.parse(run.stdout) as { sessions: Record<string, unknown>[]; problems: Record<string, unknown>[]; lines: Record<string, unknown> };
    expect(Object.keys(report).sort()).toEqual(['lines', 'problems', 'sessions']);
    expect(Object.keys(report.lines).sort()).toEqual(['incomplete', 'keptWithProblem', 'nodes', 'notModelled', 'records', 'unreadable']);
    expect(report.sessions.length).toBeGreaterThanOrEqual(2);
    for (const session of report.sessions) expect(Object.keys(session).sort()).toEqual(['files', 'id', 'nodes', 'source']);
    for (const problem of report.problems) expect(Object.keys(problem).filter((key) => key !== 'notImported').sort()).toEqual(['file', 'line', 'reason']);
    expect(report.problems.filter((p) => p.notImported === true).map((p) => p.file)).toEqual([join(root, 'missing.jsonl')]);

    const ls = JSON.parse((await cli(['ls', '--json', '--data-dir', dataDir])).stdout) as { total: number };
    expect(ls.total).toBe(report.sessions.length);
  });

  it('imports the default location (~/.claude/projects under the injected home) with a human summary', async () => {
    const projects = join(home, '.claude', 'projects', '-work-app');
    mkdirSync(projects, { recursive: true });
    const source = join(CORPUS, 'claude-code-log/fixtures');
    const one = readdirSync(source).find((f) => f === 'dag_fork.jsonl');
    if (one === undefined) throw new Error('fixture dag_fork.jsonl missing from corpus');
    copyFileSync(join(source, one), join(projects, one)); // a temp home, never the repository
    const run = await cli(['import', '--data-dir', join(root, 'default-data')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 1 session \(\d+ nodes\) from 1 file\.\n/);
  });
});
