/**
 * Terminal output is inert (issue 13): a transcript written to drive the terminal — OSC 52 clipboard writes,
 * OSC 0/2 titles, OSC 8 links, CSI, DCS, APC/PM/SOS strings, 8-bit C1, bare ESC, BEL, backspace, CR
 * overwrites, bidi overrides — in prompts, replies, tool output, file names, titles, the session id and
 * its folder, imported and printed by every command that prints text: no control character but \n and \t
 * reaches stdout or stderr, and the text is still there, visibly escaped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/main';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { createArborService } from '../../../electron/service/arbor-service';
import { Random } from '../../../shared/random';
import type { SessionGraph } from '../../../shared/model';

const ESC = '\x1b';
const HOSTILE_PIECES = [
  `${ESC}]52;c;cHduZWQ=\x07`, // OSC 52: write the clipboard
  `${ESC}]0;owned title\x07`, // OSC 0: window title
  `${ESC}]2;owned title${ESC}\\`, // OSC 2 ended by ST
  `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`, // OSC 8 hyperlink
  `${ESC}[2J${ESC}[31mred${ESC}[0m`, // CSI: clear screen, colour
  `${ESC}P1$qm${ESC}\\`, // DCS
  `${ESC}_apc${ESC}\\${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\`, // APC, PM, SOS
  '\u009b31m\u009d0;c1 title\u0007\u0090dcs\u009c\u0085', // 8-bit C1 as UTF-8 (CSI, OSC, DCS, ST, NEL)
  `bare${ESC}escape`,
  'bell\x07',
  'back\b\b\bspace',
  'safe text\rEVIL OVERWRITE', // CR overwrite
  'abc\u202Edcba\u2066iso\u2067rtl\u2068fsi\u2069', // bidi overrides and isolates
  'nul\0del\x7f',
];
const HOSTILE = HOSTILE_PIECES.join(' ');
/** Everything a terminal may act on: C0 but \n and \t, DEL, C1, bidi controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const SESSION_ID = `5e551011-0000-4000-8000-${ESC}]0;id${'\x07'}`;
const PROJECT_DIR = `-w${ESC}[31mproj\u009b0m`;
const CWD = `/w${ESC}]0;cwd\x07`;
const EVIL_FILE = `${CWD}/evil${ESC}]8;;http://x\x07name\u202E.txt`;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let root: string;
let home: string;
let dataDir: string;
let graph: SessionGraph;

async function cli(args: string[], terminal = false): Promise<Run> {
  const out: Buffer[] = [];
  let stderr = '';
  const io: CliIO = {
    stdout: (output) => void out.push(Buffer.from(output)),
    stderr: (text) => void (stderr += text),
    stdin: new PassThrough(),
    cwd: root,
    env: {},
    interactive: terminal,
    stdoutIsTerminal: terminal,
  };
  const code = await runCli(['--data-dir', dataDir, ...args], io, { createService: createArborService, homeDir: home, platform: 'linux' });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr };
}

/** Arbor's own progress prefix (return, erase line) on an interactive stderr is the one control it writes. */
const PROGRESS_PREFIX = '\r\x1b[K';

function expectInert(run: Run, what: string): void {
  const out = CONTROL.exec(run.stdout);
  expect(out, `${what}: stdout holds U+${out?.[0].charCodeAt(0).toString(16).padStart(4, '0')}`).toBeNull();
  const err = CONTROL.exec(run.stderr.split(PROGRESS_PREFIX).join(''));
  expect(err, `${what}: stderr holds U+${err?.[0].charCodeAt(0).toString(16).padStart(4, '0')}`).toBeNull();
}

/** A session whose every printed field is hostile: title, prompts, replies, thinking, tool input and output, a written file. */
function hostileTranscript(): string[] {
  const builder = new TranscriptBuilder(
    { sessionId: SESSION_ID, cwd: CWD, version: `2.1.0${ESC}[5m`, gitBranch: `main${ESC}]0;b\x07`, slug: 'hostile' },
    new Random(13),
    new Date('2026-11-30T10:00:00Z'),
  );
  const usage = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
  const prompt = builder.userPrompt(`hostile prompt ${HOSTILE}`);
  builder.assistant([{ type: 'thinking', thinking: `thinking ${HOSTILE}`, signature: 'sig' }], 'claude-opus-4', usage, 'tool_use');
  const write = builder.assistant(
    [{ type: 'tool_use', id: builder.toolUseId(), name: 'Write', input: { file_path: EVIL_FILE, content: `content ${HOSTILE}\n` } }],
    'claude-opus-4',
    usage,
    'tool_use',
  );
  builder.toolResult(write.calls[0]!, `File created successfully at: ${EVIL_FILE}`, {
    type: 'create',
    filePath: EVIL_FILE,
    content: `content ${HOSTILE}\n`,
    structuredPatch: [],
    originalFile: null,
  });
  const bash = builder.assistant(
    [{ type: 'tool_use', id: builder.toolUseId(), name: 'Bash', input: { command: `echo ${HOSTILE}`, description: HOSTILE } }],
    'claude-opus-4',
    usage,
    'tool_use',
  );
  builder.toolResult(bash.calls[0]!, `hostile output ${HOSTILE}`, { stdout: HOSTILE, stderr: '', interrupted: false });
  builder.assistant([{ type: 'text', text: `hostile reply ${HOSTILE}` }], 'claude-opus-4', usage, 'end_turn');
  builder.record({ type: 'custom-title', customTitle: `hostile title ${HOSTILE}`, sessionId: SESSION_ID });
  builder.summary(`hostile summary ${HOSTILE}`, prompt);
  builder.record({ type: `hostile${ESC}]0;type\x07`, sessionId: SESSION_ID });
  return [...builder.take(), `not json ${HOSTILE}`];
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-hostile-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  const folder = join(home, '.claude', 'projects', PROJECT_DIR);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${SESSION_ID}\u202E.jsonl`), `${hostileTranscript().join('\n')}\n`);
  const imported = await cli(['import', folder]);
  expect(imported.code, imported.stderr).toBe(0);
  expectInert(imported, 'import');
  const ls = JSON.parse((await cli(['ls', '--json'])).stdout) as { sessions: { id: string }[] };
  const id = ls.sessions[0]!.id;
  graph = JSON.parse((await cli(['show', id, '--json'])).stdout) as SessionGraph;
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('terminal output is inert', () => {
  it('escapes a hostile transcript in every command that prints text, plain and --json, piped and on a terminal', async () => {
    const session = graph.session.id;
    const nodes = graph.nodes;
    const writeNode = nodes.find((n) => n.toolCalls.some((c) => c.name === 'Write'));
    const last = nodes[nodes.length - 1]!;
    expect(writeNode).toBeDefined();
    const runs: [string, string[]][] = [
      ['import again', ['import', join(home, '.claude', 'projects')]],
      ['ls', ['ls']],
      ['ls --json', ['ls', '--json']],
      ['show', ['show', session]],
      ['show --json', ['show', session, '--json']],
      ['tree', ['tree', session]],
      ['tree --ids', ['tree', session, '--ids']],
      ['search', ['search', 'hostile']],
      ['search --json', ['search', 'hostile', '--json']],
      ['files', ['files', last.id]],
      ['files --json', ['files', last.id, '--json']],
      ['cat --replayed', ['cat', last.id, EVIL_FILE, '--replayed']],
      ['diff', ['diff', nodes[0]!.id, last.id]],
      ['diff --json', ['diff', nodes[0]!.id, last.id, '--json']],
      ['forks', ['forks']],
      ['forks --json', ['forks', '--json']],
      ['doctor', ['doctor', join(home, '.claude', 'projects')]],
      ['doctor --json', ['doctor', '--json']],
      ['show an unknown hostile id (the error echoes it)', ['show', `nope${HOSTILE}`]],
      ['cat a hostile missing path (the error echoes it)', ['cat', last.id, `${CWD}/missing${HOSTILE}`]],
      ['an unknown hostile command', [`frob${HOSTILE}`]],
      ['a hostile bad option', ['ls', `--x${ESC}]0;o\x07`]],
    ];
    for (const terminal of [false, true]) {
      for (const [what, args] of runs) {
        const run = await cli(args, terminal);
        expectInert(run, `${what}${terminal ? ' (terminal)' : ''}`);
        expect(run.stdout.length + run.stderr.length, what).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it('shows the hostile text escaped, not dropped: ESC as ␛, C1 and bidi as \\u escapes', async () => {
    const show = await cli(['show', graph.session.id]);
    // The custom title wins over the summary (issue 13's title order).
    expect(show.stdout).toContain('hostile title ␛]52;c;cHduZWQ=␇');
    const tree = await cli(['tree', graph.session.id]);
    expect(tree.stdout).toContain('hostile prompt ␛]52;c;cHduZWQ=␇');
    const search = await cli(['search', 'hostile', 'reply']);
    expect(search.stdout).toMatch(/«hostile» «reply» ␛\]52/);
    expect(tree.stdout).toContain('name\\u202e.txt');
  });

  it('keeps --json output valid and lossless: the decoded strings are the transcript’s own', async () => {
    const json = await cli(['show', graph.session.id, '--json']);
    const parsed = JSON.parse(json.stdout) as SessionGraph;
    expect(parsed.session.title).toBe(graph.session.title);
    expect(parsed.session.title).toContain(`hostile title ${ESC}]52;c;cHduZWQ=\x07`);
    expect(parsed.nodes.some((n) => n.label.startsWith(`hostile prompt ${ESC}]52;`))).toBe(true);
  });

  it('prints cat’s bytes exactly into a pipe and escaped on a terminal', async () => {
    // The Write's result: the Bash after it makes later states unknown.
    const written = graph.nodes.find((n) => n.kind === 'tool_result' && n.label.includes('Write'));
    expect(written).toBeDefined();
    const last = written!;
    const piped = await cli(['cat', last.id, EVIL_FILE]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(`content ${HOSTILE}\n`);
    const shown = await cli(['cat', last.id, EVIL_FILE], true);
    expect(shown.code).toBe(0);
    expectInert(shown, 'cat on a terminal');
    expect(shown.stdout).toContain('content ␛]52;c;cHduZWQ=␇');
    expect(shown.stdout).toContain('\\u009b31m\\u009d0;c1 title␇\\u0090dcs\\u009c\\u0085');
    expect(shown.stdout).toContain('safe text␍EVIL OVERWRITE');
    expect(shown.stdout).toContain('abc\\u202edcba\\u2066iso');
    expect(shown.stdout).toContain('nul␀del\\u007f');
  });
});
