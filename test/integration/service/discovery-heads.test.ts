/**
 * Discovery read a 64 KiB head of every transcript on every import run, unchanged ones too (to claim it by
 * content): a file stored with the same size and mtime keeps its stored format without being read; a file
 * that changed, or is new, is read and claimed again.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { readFileHead } from '../../../electron/importers/file-head';
import { discoverTranscripts } from '../../../electron/importers/registry';
import { importSessions, type TranscriptReader } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';
import { prompt, reply, writeTranscript } from './claude-lines';

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-heads-'));
  store = openSessionStore(join(root, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

it('a second import reads no head of an unchanged transcript, and reads again only the one that grew', async () => {
  const projects = join(root, 'p');
  for (let index = 0; index < 3; index++) writeTranscript(join(projects, `S${index}.jsonl`), [prompt(`u${index}`, null, `prompt ${index}`, `S${index}`), reply(`a${index}`, `u${index}`, 'ok', `S${index}`)]);
  const codexId = '019e0000-0000-7000-8000-0000000000b1';
  // Named like a Claude subagent: claimed by content on the first run, remembered as Codex after it.
  const rollout = join(projects, 'S0', 'subagents', 'agent-x1.jsonl');
  mkdirSync(join(projects, 'S0', 'subagents'), { recursive: true });
  await new RolloutBuilder({ id: codexId, cwd: '/w' }).user('go').agent('done').write(rollout);

  const headsRead: string[] = [];
  const reader: TranscriptReader = {
    ...transcriptReader,
    discover: (paths, options) =>
      discoverTranscripts([...paths], {
        ...options,
        readHead: (path) => {
          headsRead.push(path);
          return readFileHead(path);
        },
      }),
  };
  const first = await importSessions(store, reader, [projects], { jobId: 'one', workerFromBytes: Infinity });
  expect(headsRead).toHaveLength(4);
  expect(first.sessions.map((session) => session.id).sort()).toEqual([codexId, 'S0', 'S1', 'S2'].sort());

  headsRead.length = 0;
  const second = await importSessions(store, reader, [projects], { jobId: 'two', workerFromBytes: Infinity });
  expect(headsRead).toEqual([]);
  expect(second.problems).toEqual([]);

  appendFileSync(join(projects, 'S1.jsonl'), `${JSON.stringify(reply('a1b', 'a1', 'more', 'S1', 2))}\n`);
  headsRead.length = 0;
  const third = await importSessions(store, reader, [projects], { jobId: 'three', workerFromBytes: Infinity });
  expect(headsRead).toEqual([join(projects, 'S1.jsonl')]);
  expect(third.sessions.map((session) => [session.id, session.nodes])).toEqual([['S1', 1]]);
  // The rollout kept its format: still its own Codex session, not a subagent of S0.
  expect(store.getSession(codexId)?.source).toBe('codex');
});
