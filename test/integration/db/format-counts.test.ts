/**
 * The format report kept by the import (migration 038, db/format-counts.ts): `sessions.formatReport` merges the
 * tallies the import kept instead of reading every stored line, and says exactly what the doctor says reading them
 * all (the previous way, kept here as the reference) — on the corpus and on generated sessions with unmodelled
 * record types, unreadable lines and lines too large, of both formats; an append adds its lines, a rewritten file
 * is counted again, a deletion takes its tallies; a store made before 038 is counted from its stored lines once,
 * in slices that let other requests through and stop when cancelled.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../../electron/db/database';
import { latestVersion, migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { forgetSessions } from '../../../electron/db/session-delete';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { importerFor } from '../../../electron/importers/registry';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { importSessions } from '../../../electron/service/import-sessions';
import { sessionFormatReport } from '../../../electron/service/session-format-report';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import type { FormatReport } from '../../../shared/format-report';
import { Random } from '../../../shared/random';
import { copyRows, sharedColumns } from './previous-schema';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions');
const SESSION = '0d0c7012-0000-4000-8000-000000000038';
const ROLLOUT_ID = '019e0000-0000-7000-8000-000000000038';
const USAGE = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'records', 'raw_blocks', 'link_waiting', 'prompt_times', 'node_usage'];

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-format-counts-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The report as it was made before 038: the doctor over every stored line of the session, in file order. */
function fullRead(store: SessionStore, sessionId: string): FormatReport {
  const doctor = importerFor(store.getSession(sessionId)!.source)!.formatDoctor();
  store.forEachSessionLine(sessionId, (line) => doctor.line(line.raw, { file: line.file, line: line.line }, line.rawBytes, line.rawBytes > RAW_LIMIT || line.raw.length < line.rawBytes));
  return doctor.report();
}

/** Lines of a Claude Code session (2.1.7 then 2.1.30) with unmodelled shapes among modelled ones, one line too large, and more each call. */
function claudeLines(builder: TranscriptBuilder, turn: number, options: { readonly huge?: boolean } = {}): string[] {
  builder.userPrompt(`Fix bug ${turn}`);
  const call = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Read', input: { file_path: `/w/${turn}.ts` } }], 'claude-opus-4', USAGE, 'tool_use');
  builder.toolResult(call.calls[0]!, [{ type: 'text', text: 'a' }, { type: `future_result_${turn % 2}` }], { type: 'text' });
  builder.system(`future_notice_${turn % 3}`, { content: 'Something new happened' });
  builder.record({ type: 'future-record', sessionId: SESSION, detail: turn });
  builder.assistant([{ type: 'text', text: `marker ${turn}` }], 'claude-opus-4', USAGE, 'end_turn');
  const lines = builder.take().map((line) => {
    if (!line.includes(`"marker ${turn}"`)) return line;
    const entry = JSON.parse(line) as { message: { content: unknown[] } };
    entry.message.content = [{ type: 'future_block', payload: 1 }, { type: 'text', text: 'still here' }, { type: 'future_block' }];
    return JSON.stringify(entry);
  });
  // A line with a uuid and no type is a node of unknown type; a record without a version inherits the one before.
  lines.push(JSON.stringify({ uuid: `0d0c7012-0000-4000-8000-${String(turn).padStart(12, '0')}`, parentUuid: null, sessionId: SESSION, version: turn > 2 ? '2.1.30' : '2.1.7' }));
  lines.push('{"type":"user","broken":');
  if (options.huge === true) lines.push(JSON.stringify({ type: 'future-huge', sessionId: SESSION, text: 'x'.repeat(RAW_LIMIT + 1000) }));
  return lines;
}

function codexLines(builder: RolloutBuilder, from: number, count: number, options: { readonly huge?: boolean } = {}): string[] {
  for (let turn = from; turn < from + count; turn++) {
    builder.user(`Turn ${turn}`).command(`npm test -- ${turn}`, { exitCode: 0, output: `ok ${turn}\n` }).agent(`Done ${turn}`).complete();
    builder.emit('future_record_type', { n: turn });
    builder.emit('event_msg', { type: `future_event_${turn % 2}` });
  }
  const lines = builder.drain();
  lines.push(JSON.stringify({ timestamp: '2026-11-30T09:00:00.000Z', type: 'response_item' }));
  lines.push('not json at all');
  if (options.huge === true) lines.push(JSON.stringify({ timestamp: '2026-11-30T09:00:00.000Z', type: 'event_msg', payload: { type: 'future_big', text: 'y'.repeat(RAW_LIMIT + 10) } }));
  return lines;
}

const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

interface Fixture {
  readonly folder: string;
  readonly claudeFile: string;
  readonly codexFile: string;
  readonly claude: TranscriptBuilder;
  readonly codex: RolloutBuilder;
}

function writeFixture(): Fixture {
  const folder = join(root, 'sessions');
  mkdirSync(join(folder, 'p'), { recursive: true });
  const claude = new TranscriptBuilder({ sessionId: SESSION, cwd: '/w', version: '2.1.7', gitBranch: 'main', slug: 's' }, new Random(38), new Date('2026-11-01T10:00:00Z'));
  const claudeFile = join(folder, 'p', `${SESSION}.jsonl`);
  writeFileSync(claudeFile, text([...claudeLines(claude, 1, { huge: true }), ...claudeLines(claude, 2)]));
  const codex = new RolloutBuilder({ id: ROLLOUT_ID, cwd: '/work/app' });
  const codexFile = join(folder, `rollout-2026-11-30T09-00-00-${ROLLOUT_ID}.jsonl`);
  writeFileSync(codexFile, text(codexLines(codex, 0, 5, { huge: true })));
  return { folder, claudeFile, codexFile, claude, codex };
}

async function expectKeptAndEqual(store: SessionStore, sessionId: string): Promise<FormatReport> {
  // Kept by the import: nothing of the session needs its lines read.
  expect(store.formatCountParts(sessionId).filter((part) => part.needsCount)).toEqual([]);
  const report = await sessionFormatReport(store, sessionId);
  expect(report).toEqual(fullRead(store, sessionId));
  return report;
}

describe('the report kept by the import', () => {
  it('equals the full read of the stored lines, for both formats, with unmodelled types, unreadable and too large lines', async () => {
    const fixture = writeFixture();
    const store = openSessionStore(join(root, 'store.sqlite'));
    try {
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'first' });
      const claude = await expectKeptAndEqual(store, SESSION);
      expect(claude.tooLarge).toBe(1);
      expect(claude.unmodelled.map((finding) => [finding.category, finding.name, finding.lines, finding.versions])).toEqual(
        expect.arrayContaining([['record type', 'future-record', 2, ['2.1.7']], ['record type', '(none)', 2, ['2.1.7']], ['assistant block', 'future_block', 2, ['2.1.7']]]),
      );
      const codex = await expectKeptAndEqual(store, ROLLOUT_ID);
      expect(codex.tooLarge).toBe(1);
      expect(codex.unreadable.count).toBeGreaterThan(0);
      expect(codex.unmodelled.map((finding) => finding.name)).toEqual(expect.arrayContaining(['future_record_type', 'future_event_0', 'future_event_1']));
    } finally {
      store.close();
    }
  });

  it('adds an append\'s lines to the kept tally, and counts a rewritten file again', async () => {
    const fixture = writeFixture();
    const store = openSessionStore(join(root, 'store.sqlite'));
    try {
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'first' });
      const before = await expectKeptAndEqual(store, SESSION);
      appendFileSync(fixture.claudeFile, text(claudeLines(fixture.claude, 3)));
      appendFileSync(fixture.codexFile, text(codexLines(fixture.codex, 5, 2)));
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'append' });
      const after = await expectKeptAndEqual(store, SESSION);
      expect(after.lines).toBeGreaterThan(before.lines);
      expect(after.unmodelled.find((finding) => finding.name === '(none)')?.versions).toEqual(['2.1.7', '2.1.30']);
      await expectKeptAndEqual(store, ROLLOUT_ID);

      // Rewritten shorter: read again from its start; its new lines land before the last one counted.
      const other = new TranscriptBuilder({ sessionId: SESSION, cwd: '/w', version: '2.1.40', gitBranch: 'main', slug: 's' }, new Random(7), new Date('2026-11-05T10:00:00Z'));
      writeFileSync(fixture.claudeFile, text(claudeLines(other, 9)));
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'rewrite' });
      // Its tally can no longer be appended to: the file's stored lines are counted again.
      expect(store.formatCountParts(SESSION).map((part) => part.needsCount)).toEqual([true]);
      const rewritten = await sessionFormatReport(store, SESSION);
      expect(rewritten).toEqual(fullRead(store, SESSION));
      expect(rewritten.unmodelled.find((finding) => finding.name === 'future_block')?.versions).toContain('2.1.40');
      // Counted from the stored lines once, and kept from then on.
      await expectKeptAndEqual(store, SESSION);
    } finally {
      store.close();
    }
  });

  it('counts a file\'s records stored before its first node under its session, and a fork\'s copies under the session they belong to', async () => {
    const folder = join(root, 'sessions');
    mkdirSync(join(folder, 'p'), { recursive: true });
    const parent = new TranscriptBuilder({ sessionId: SESSION, cwd: '/w', version: '2.1.7', gitBranch: 'main', slug: 's' }, new Random(5), new Date('2026-11-01T10:00:00Z'));
    const parentLines = [...claudeLines(parent, 1), ...claudeLines(parent, 2)];
    // More records than a file's first batch holds, then the fork's copies of the parent's lines, then its own.
    const forkId = '0d0c7012-0000-4000-8000-0000000000f0';
    const fork = new TranscriptBuilder({ sessionId: forkId, cwd: '/w', version: '2.1.30', gitBranch: 'main', slug: 'f' }, new Random(6), new Date('2026-11-02T10:00:00Z'));
    for (let index = 0; index < 600; index++) fork.record({ type: 'future-early-record', sessionId: forkId, index });
    fork.forkCopies(parentLines.filter((line) => !line.endsWith(":")), SESSION);
    const forkLines = [...fork.take(), ...claudeLines(fork, 3)];
    writeFileSync(join(folder, 'p', `${forkId}.jsonl`), text(forkLines));
    const store = openSessionStore(join(root, 'store.sqlite'));
    try {
      // The fork first, its parent's file not there yet: the copies are stored as the parent's nodes, in the fork's file.
      await importSessions(store, transcriptReader, [folder], { jobId: 'fork' });
      writeFileSync(join(folder, 'p', `${SESSION}.jsonl`), text(parentLines));
      await importSessions(store, transcriptReader, [folder], { jobId: 'parent' });
      const forkReport = await expectKeptAndEqual(store, forkId);
      expect(forkReport.unmodelled.find((finding) => finding.name === 'future-early-record')?.lines).toBe(600);
      expect(store.formatCountParts(SESSION).map((part) => part.path.endsWith(`${forkId}.jsonl`))).toEqual([true, false]);
      await expectKeptAndEqual(store, SESSION);
    } finally {
      store.close();
    }
  });

  it('goes with its session when the session is deleted', async () => {
    const fixture = writeFixture();
    const store = openSessionStore(join(root, 'store.sqlite'));
    try {
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'first' });
      const rows = store.handles.read.prepare<[string], { n: number }>('SELECT count(*) AS n FROM format_counts WHERE session_id = ?');
      expect(rows.get(SESSION)!.n).toBeGreaterThan(0);
      expect(forgetSessions(store.handles.write, [SESSION]).status).toBe('deleted');
      expect(rows.get(SESSION)!.n).toBe(0);
      expect(store.handles.read.prepare('SELECT count(*) AS n FROM format_counts c LEFT JOIN files f ON f.id = c.file_id WHERE f.id IS NULL').get()).toEqual({ n: 0 });
      await expectKeptAndEqual(store, ROLLOUT_ID);
    } finally {
      store.close();
    }
  });

  it('equals the full read on every session of the corpus', async (context) => {
    if (!existsSync(CORPUS)) {
      context.skip(`no corpus at ${CORPUS}`);
      return;
    }
    const folders = ['claude-code', 'codex'].map((name) => join(CORPUS, name)).filter(existsSync);
    const store = openSessionStore(join(root, 'store.sqlite'));
    try {
      await importSessions(store, transcriptReader, folders, { jobId: 'corpus' });
      const sessions = store.handles.read.prepare<[], { id: string }>('SELECT id FROM sessions ORDER BY id').all();
      expect(sessions.length).toBeGreaterThan(10);
      let findings = 0;
      for (const { id } of sessions) findings += (await expectKeptAndEqual(store, id)).unmodelled.length;
      expect(findings).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

/**
 * A store made by the previous version holding the fixture's sessions (its rows copied from a current store): every
 * migration up to 040 but 038, so at version 40 (040 was merged first), which 038 must still reach.
 */
async function storeBefore038(fixture: Fixture): Promise<string> {
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  try {
    await importSessions(current, transcriptReader, [fixture.folder], { jobId: 'first' });
  } finally {
    current.close();
  }
  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version !== 38));
  expect(old.pragma('user_version', { simple: true })).toBe(latestVersion());
  expect(old.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'format_counts'").get()).toEqual({ n: 0 });
  copyRows(old, currentPath, sharedColumns(old, currentPath, TABLES));
  old.close();
  return oldPath;
}

describe('a store made before migration 038', () => {
  it('is counted from its stored lines on the first report, kept, then kept up by appends', async () => {
    const fixture = writeFixture();
    const store = openSessionStore(await storeBefore038(fixture));
    try {
      const db = store.handles.read;
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
      expect(db.prepare('SELECT DISTINCT format_counted FROM files').all()).toEqual([{ format_counted: 0 }]);
      expect(db.prepare('SELECT count(*) AS n FROM format_counts').get()).toEqual({ n: 0 });
      for (const session of [SESSION, ROLLOUT_ID]) {
        expect(store.formatCountParts(session).every((part) => part.needsCount)).toBe(true);
        expect(await sessionFormatReport(store, session)).toEqual(fullRead(store, session));
        await expectKeptAndEqual(store, session);
      }
      appendFileSync(fixture.claudeFile, text(claudeLines(fixture.claude, 3)));
      appendFileSync(fixture.codexFile, text(codexLines(fixture.codex, 5, 2)));
      await importSessions(store, transcriptReader, [fixture.folder], { jobId: 'append' });
      const after = await expectKeptAndEqual(store, SESSION);
      expect(after.unmodelled.find((finding) => finding.name === 'future-record')?.lines).toBe(3);
      await expectKeptAndEqual(store, ROLLOUT_ID);
    } finally {
      store.close();
    }
  });

  it('counts a big session in slices: other work runs meanwhile, and a cancel stops it', async () => {
    const folder = join(root, 'sessions');
    mkdirSync(join(folder, 'p'), { recursive: true });
    const builder = new TranscriptBuilder({ sessionId: SESSION, cwd: '/w', version: '2.1.7', gitBranch: 'main', slug: 's' }, new Random(3), new Date('2026-11-01T10:00:00Z'));
    const lines: string[] = [];
    for (let turn = 0; lines.length < 20_000; turn++) lines.push(...claudeLines(builder, turn));
    const fixture: Fixture = { folder, claudeFile: join(folder, 'p', `${SESSION}.jsonl`), codexFile: '', claude: builder, codex: new RolloutBuilder({ id: ROLLOUT_ID, cwd: '/' }) };
    writeFileSync(fixture.claudeFile, text(lines));
    const store = openSessionStore(await storeBefore038(fixture));
    try {
      const cancel = new AbortController();
      const cancelled = sessionFormatReport(store, SESSION, cancel.signal);
      setImmediate(() => cancel.abort());
      await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(store.handles.read.prepare('SELECT count(*) AS n FROM format_counts').get()).toEqual({ n: 0 });

      // Another request's turns of the event loop while the report counts.
      let turns = 0;
      let counting = true;
      const other = (): void => {
        turns += 1;
        if (counting) setImmediate(other);
      };
      setImmediate(other);
      const report = await sessionFormatReport(store, SESSION);
      counting = false;
      expect(turns).toBeGreaterThanOrEqual(3);
      expect(report).toEqual(fullRead(store, SESSION));
      await expectKeptAndEqual(store, SESSION);
    } finally {
      store.close();
    }
  });
});
