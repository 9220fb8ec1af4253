/** The import pipeline with the real Claude Code reader, cancelled part-way by a reader wrapper. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { importSessions, type TranscriptReader } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/arbor-service';
import { CancelledError } from '../../../shared/errors';
import { prompt, reply, writeTranscript } from './claude-lines';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-import-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

it('links the sessions already stored when cancelled between files, and resumes with the rest', async () => {
  for (let index = 0; index < 5; index++) {
    writeTranscript(join(root, 'p', `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`), reply(`a${index}`, `u${index}`, 'ok', `S${index}`)]);
  }
  const controller = new AbortController();
  let parsed = 0;
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      if (++parsed === 3) controller.abort();
      return transcriptReader.parse(file, sink, options);
    },
  };
  await expect(importSessions(store, reader, [join(root, 'p')], { jobId: 'j', signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
  const stored = store.listSessions({});
  expect(stored.total).toBeGreaterThanOrEqual(2);
  expect(stored.total).toBeLessThan(5);
  // Linked despite the cancellation: counts and parents are final.
  for (const session of stored.sessions) {
    expect(session.nodeCount).toBe(2);
    expect(store.getSessionNodes(session.id).map((node) => node.parentId)).toEqual([null, `u${session.id.slice(1)}`]);
  }
  const rest = await importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'k' });
  expect(rest.sessions.length).toBe(5 - stored.total);
  expect(store.listSessions({}).total).toBe(5);
});

it('reports a file that cannot be read and imports the others', async () => {
  writeTranscript(join(root, 'p', 'S1.jsonl'), [prompt('u1', null, 'one')]);
  writeTranscript(join(root, 'p', 'S2.jsonl'), [prompt('u2', null, 'two', 'S2')]);
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      if (file.path.endsWith('S1.jsonl')) throw new Error('EACCES: permission denied');
      return transcriptReader.parse(file, sink, options);
    },
  };
  const report = await importSessions(store, reader, [join(root, 'p')], { jobId: 'j' });
  expect(report.sessions.map((session) => session.id)).toEqual(['S2']);
  expect(report.problems).toEqual([{ file: join(root, 'p', 'S1.jsonl'), line: 0, reason: expect.stringContaining('EACCES'), notImported: true }]);
});

it('regression: the sessions list stayed empty until the whole first import ended; each session is listed, titled, as its file is stored', async () => {
  for (let index = 0; index < 4; index++) {
    writeTranscript(join(root, 'p', `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`), reply(`a${index}`, `u${index}`, 'ok', `S${index}`)]);
  }
  let ended = false;
  const heard: { ids: readonly string[]; listed: string[]; ended: boolean }[] = [];
  const outcome = importSessions(store, transcriptReader, [join(root, 'p')], {
    jobId: 'j',
    sessionsChangedEveryMs: 0,
    onSessionsChanged: (ids) => heard.push({ ids, listed: store.listSessions({}).sessions.map((s) => `${s.id}:${s.title}`), ended }),
  }).finally(() => (ended = true));
  const report = await outcome;
  expect(heard.map((event) => event.ids)).toEqual([['S0'], ['S1'], ['S2'], ['S3']]);
  expect(heard.every((event) => !event.ended)).toBe(true);
  // Linked when heard: the list already shows the first prompt as the title, not the session id.
  expect(heard[0]!.listed).toEqual(['S0:prompt 0']);
  expect(heard[2]!.listed.sort()).toEqual(['S0:prompt 0', 'S1:prompt 1', 'S2:prompt 2']);
  expect([...report.changedSessionIds].sort()).toEqual(['S0', 'S1', 'S2', 'S3']);
});

it('tells the list at most once per interval while an import runs', async () => {
  for (let index = 0; index < 6; index++) writeTranscript(join(root, 'p', `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
  const heard: (readonly string[])[] = [];
  const report = await importSessions(store, transcriptReader, [join(root, 'p')], {
    jobId: 'j',
    sessionsChangedEveryMs: 60_000,
    onSessionsChanged: (ids) => heard.push(ids),
  });
  // The first file is linked at once (the list is not empty for long), the rest at the end.
  expect(heard.map((ids) => [...ids].sort())).toEqual([['S0'], ['S1', 'S2', 'S3', 'S4', 'S5']]);
  expect([...report.changedSessionIds].sort()).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5']);
});

it('regression: sessions stored before a big file are listed before it starts, not when it ends', async () => {
  for (let index = 0; index < 4; index++) writeTranscript(join(root, 'p', `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
  const big = Array.from({ length: 40 }, (_, line) => prompt(`b${line}`, line === 0 ? null : `b${line - 1}`, `big prompt ${line} `.repeat(20), 'S9'));
  writeTranscript(join(root, 'p', 'S9.jsonl'), big);
  const heard: string[] = [];
  let heardWhenBigStarted: string[] = [];
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      if (file.path.endsWith('S9.jsonl')) heardWhenBigStarted = [...heard].sort();
      return transcriptReader.parse(file, sink, options);
    },
  };
  await importSessions(store, reader, [join(root, 'p')], {
    jobId: 'j',
    sessionsChangedEveryMs: 60_000,
    listBeforeBytes: 8 * 1024,
    onSessionsChanged: (ids) => heard.push(...ids),
  });
  expect(heardWhenBigStarted).toEqual(['S0', 'S1', 'S2', 'S3']);
  expect(heard.sort()).toEqual(['S0', 'S1', 'S2', 'S3', 'S9']);
});

it('regression: a big file\'s session was listed only when the whole file was stored; it is listed, and its newest turns readable, once its first batch is', async () => {
  const lines = Array.from({ length: 1500 }, (_, line) => prompt(`b${line}`, line === 0 ? null : `b${line - 1}`, `big prompt ${line}`, 'S9'));
  writeTranscript(join(root, 'p', 'S9.jsonl'), lines);
  let parsed = false;
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      const end = await transcriptReader.parse(file, sink, options);
      parsed = true;
      return end;
    },
  };
  const heard: { parsed: boolean; listed: string[]; nodes: number; newest: string | null }[] = [];
  await importSessions(store, reader, [join(root, 'p')], {
    jobId: 'j',
    sessionsChangedEveryMs: 60_000,
    listBeforeBytes: 8 * 1024,
    onSessionsChanged: () => {
      const session = store.getSession('S9');
      const nodes = session === null ? 0 : session.nodeCount;
      heard.push({ parsed, listed: store.listSessions({}).sessions.map((s) => s.id), nodes, newest: nodes > 0 ? (store.getNode(`b${nodes - 1}`)?.summary.id ?? null) : null });
    },
  });
  // The first call came while the file was still being read: listed, with its newest stored node readable.
  expect(heard[0]).toMatchObject({ parsed: false, listed: ['S9'] });
  expect(heard[0]!.nodes).toBeGreaterThan(0);
  expect(heard[0]!.nodes).toBeLessThan(1500);
  expect(heard[0]!.newest).toBe(`b${heard[0]!.nodes - 1}`);
  expect(store.getSession('S9')?.nodeCount).toBe(1500);
});

it('a parent cycle found by an early link and again at the end is reported once', async () => {
  writeTranscript(join(root, 'p', 'S1.jsonl'), [prompt('x', 'y', 'one'), prompt('y', 'x', 'two')]);
  writeTranscript(join(root, 'p', 'S1', 'subagents', 'agent-a1.jsonl'), [{ ...prompt('s1', null, 'sub'), isSidechain: true, agentId: 'a1' }]);
  const report = await importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'j', sessionsChangedEveryMs: 0, onSessionsChanged: () => {} });
  expect(report.problems.filter((problem) => problem.reason.startsWith('parent cycle'))).toHaveLength(1);
});

it('a cancelled import tells the list about the sessions it committed', async () => {
  for (let index = 0; index < 4; index++) writeTranscript(join(root, 'p', `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`)]);
  const controller = new AbortController();
  let parsed = 0;
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      if (++parsed === 3) controller.abort();
      return transcriptReader.parse(file, sink, options);
    },
  };
  const heard: string[] = [];
  await expect(
    importSessions(store, reader, [join(root, 'p')], { jobId: 'j', signal: controller.signal, sessionsChangedEveryMs: 60_000, onSessionsChanged: (ids) => heard.push(...ids) }),
  ).rejects.toBeInstanceOf(CancelledError);
  expect(heard.sort()).toEqual(store.listSessions({}).sessions.map((session) => session.id).sort());
  expect(heard.length).toBeGreaterThanOrEqual(2);
});

/** Commits in the store's WAL (frames of its current generation whose header records the database size). */
function walCommits(storeFile: string): number {
  let wal: Buffer;
  try {
    wal = readFileSync(`${storeFile}-wal`);
  } catch {
    return 0;
  }
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

/** Six small sessions of 600 lines (more than a big file's first batch), S0…S5. */
function writeSmallSessions(): void {
  for (let index = 0; index < 6; index++) {
    const lines = Array.from({ length: 600 }, (_, line) => prompt(`s${index}-${line}`, line === 0 ? null : `s${index}-${line - 1}`, `prompt ${line} of ${index}`, `S${index}`));
    writeTranscript(join(root, 'p', `S${index}.jsonl`), lines);
  }
}

it('regression: each small file was four commits of its own (its row, a first batch, the rest, its resume point), each writing the pages of the ids\' indexes again; small files now commit together', async () => {
  writeSmallSessions();
  const file = join(root, 'arbor.sqlite');
  const before = walCommits(file);
  await importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'j', sessionsChangedEveryMs: 60_000 });
  // The first file alone, the other five together, then the end's link and bookkeeping (27 commits before).
  expect(walCommits(file) - before).toBeLessThanOrEqual(6);
  expect(store.listSessions({}).sessions.map((session) => [session.id, session.nodeCount]).sort()).toEqual(
    ['S0', 'S1', 'S2', 'S3', 'S4', 'S5'].map((id) => [id, 600]),
  );
});

it('a crash while small files are stored together loses only the files not yet committed, and the next import stores them', async () => {
  writeSmallSessions();
  const crashed = join(root, 'crashed');
  mkdirSync(crashed);
  let parsed = 0;
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    async parse(file, sink, options) {
      // What the disk holds while the fourth file is read: the state a killed process leaves.
      if (++parsed === 4) for (const suffix of ['', '-wal']) copyFileSync(join(root, `arbor.sqlite${suffix}`), join(crashed, `arbor.sqlite${suffix}`));
      return transcriptReader.parse(file, sink, options);
    },
  };
  // Told as the service's import is: the first file is linked (and listed) at once.
  await importSessions(store, reader, [join(root, 'p')], { jobId: 'j', sessionsChangedEveryMs: 60_000, onSessionsChanged: () => undefined });
  const recovered = openSessionStore(join(crashed, 'arbor.sqlite'));
  try {
    // The first file committed alone; the three after it were still in the open transaction.
    expect(recovered.listSessions({}).sessions.map((session) => [session.id, session.nodeCount])).toEqual([['S0', 600]]);
    const rest = await importSessions(recovered, transcriptReader, [join(root, 'p')], { jobId: 'k' });
    expect(rest.sessions.map((session) => session.id).sort()).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    expect(recovered.listSessions({}).sessions.map((session) => [session.id, session.nodeCount]).sort()).toEqual(
      ['S0', 'S1', 'S2', 'S3', 'S4', 'S5'].map((id) => [id, 600]),
    );
    expect(recovered.getSessionNodes('S3').map((node) => node.parentId).slice(0, 3)).toEqual([null, 's3-0', 's3-1']);
  } finally {
    recovered.close();
  }
});

/** One session of `count` chained prompts, b0…, in S9.jsonl: a big file's batches are 8000 lines (after its first 500). */
function writeBigSession(count: number): string[] {
  const ids = Array.from({ length: count }, (_, line) => `b${line}`);
  writeTranscript(
    join(root, 'p', 'S9.jsonl'),
    ids.map((id, line) => prompt(id, line === 0 ? null : `b${line - 1}`, `prompt ${line}`, 'S9')),
  );
  return ids;
}

it('regression: each batch of a big file was a commit of its own, each writing every page of the ids\' indexes again (0.75x a 1 GB input); its batches after the first commit together', async () => {
  writeBigSession(24_500); // a first batch and three more
  const file = join(root, 'arbor.sqlite');
  const before = walCommits(file);
  await importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'j', listBeforeBytes: 1024 });
  // The first batch alone (the session is listed at once), the other three together, then the end's link (6 before).
  expect(walCommits(file) - before).toBeLessThanOrEqual(4);
  expect(store.getSession('S9')?.nodeCount).toBe(24_500);
  expect(store.getSessionNodes('S9').slice(-2).map((node) => node.parentId)).toEqual(['b24497', 'b24498']);
});

it('a crash while a big file\'s batches are stored together keeps its first batch, and the next import stores the rest', async () => {
  writeBigSession(24_500);
  const crashed = join(root, 'crashed');
  mkdirSync(crashed);
  let nodes = 0;
  const reader: TranscriptReader = {
    discover: transcriptReader.discover,
    parse: (file, sink, options) =>
      transcriptReader.parse(
        file,
        {
          ...sink,
          node(node) {
            // What the disk holds while the fourth batch is read: the state a killed process leaves.
            if (++nodes === 20_000) for (const suffix of ['', '-wal']) copyFileSync(join(root, `arbor.sqlite${suffix}`), join(crashed, `arbor.sqlite${suffix}`));
            sink.node(node);
          },
        },
        options,
      ),
  };
  await importSessions(store, reader, [join(root, 'p')], { jobId: 'j', listBeforeBytes: 1024, onSessionsChanged: () => undefined });
  const recovered = openSessionStore(join(crashed, 'arbor.sqlite'));
  try {
    expect(recovered.getSession('S9')?.nodeCount).toBe(500);
    await importSessions(recovered, transcriptReader, [join(root, 'p')], { jobId: 'k' });
    expect(recovered.getSession('S9')?.nodeCount).toBe(24_500);
    expect(recovered.getSessionNodes('S9').slice(499, 502).map((node) => node.parentId)).toEqual(['b498', 'b499', 'b500']);
  } finally {
    recovered.close();
  }
});

it('a batch that fails inside a big file\'s write group rolls the group back (no half batch is kept), and the next import stores the file whole', async () => {
  writeBigSession(24_500);
  // The store failing on one line of the third batch (a full disk, say).
  store.handles.write.exec("CREATE TEMP TRIGGER failing BEFORE INSERT ON main.nodes WHEN NEW.id = 'b12000' BEGIN SELECT RAISE(ABORT, 'disk full'); END");
  await expect(importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'j', listBeforeBytes: 1024 })).rejects.toThrow('disk full');
  expect(store.handles.write.inTransaction).toBe(false);
  // The first batch committed alone; the group after it (the second batch and the third's first lines) is gone.
  expect(store.getSession('S9')?.nodeCount).toBe(500);
  store.handles.write.exec('DROP TRIGGER failing');
  await importSessions(store, transcriptReader, [join(root, 'p')], { jobId: 'k', listBeforeBytes: 1024 });
  expect(store.getSession('S9')?.nodeCount).toBe(24_500);
  expect(store.getSessionNodes('S9').slice(11_999, 12_002).map((node) => node.parentId)).toEqual(['b11998', 'b11999', 'b12000']);
});
