/**
 * A line longer than the store's raw limit keeps its head in its node's row and its whole bytes in the store's
 * long-line copy (migration 034): the resumable transcript copies it whole from there, even once the transcript
 * file is gone. Without that copy (a store imported before 034) it reads the transcript file, and refuses (before
 * writing anything) when the file no longer has the line.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/db/database';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { openHarness, type Harness } from '../service/service-harness';

let harness: Harness;
let workspace: string;
let transcript: string;
const big = 'x'.repeat(RAW_LIMIT + 1024);

beforeAll(async () => {
  harness = await openHarness();
  workspace = join(harness.root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'a.txt'), 'a');
  const envelope = { sessionId: 'S-big', cwd: workspace, isSidechain: false, timestamp: '2026-03-01T10:00:00.000Z' };
  const lines = [
    { ...envelope, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'read it' } },
    { ...envelope, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat big' } }] } },
    { ...envelope, type: 'user', uuid: 'r1', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: big }] } },
    { ...envelope, type: 'assistant', uuid: 'a2', parentUuid: 'r1', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'That is long.' }] } },
  ];
  transcript = join(harness.root, 'projects', 'S-big.jsonl');
  mkdirSync(join(harness.root, 'projects'));
  writeFileSync(transcript, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  await harness.service.api['import.run']({ paths: [transcript] });
  const detail = await harness.service.api['nodes.get']({ nodeId: 'r1' });
  expect(detail.rawTruncatedAt).not.toBeNull();
});
afterAll(async () => harness?.dispose());

it('copies an oversized line whole from its transcript file', async () => {
  const created = await harness.service.api['fork.create']({ nodeId: 'a2', dir: join(harness.root, 'fork') });
  const copied = readFileSync(created.transcript!, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { uuid: string; message: { content: unknown } });
  expect(copied.map((line) => line.uuid)).toEqual(['u1', 'a1', 'r1', 'a2']);
  expect(copied[2]!.message.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: big }]);
});

// The two below run last: they break the transcript file.
it('copies it whole from the store once the transcript file no longer holds it', async () => {
  writeFileSync(transcript, '');
  const created = await harness.service.api['fork.create']({ nodeId: 'a2', dir: join(harness.root, 'fork-from-store') });
  const copied = readFileSync(created.transcript!, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { uuid: string; message: { content: unknown } });
  expect(copied[2]!.message.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: big }]);
});

it('refuses, writing nothing, when neither the store nor the transcript file holds the whole line', async () => {
  // A store imported before migration 034 has no whole copy.
  const handles = openDatabase(join(harness.root, 'data', 'arbor.sqlite'));
  expect(handles.write.prepare('DELETE FROM long_lines').run().changes).toBe(1);
  handles.close();
  const target = join(harness.root, 'fork-refused');
  await expect(harness.service.api['fork.create']({ nodeId: 'a2', dir: target })).rejects.toMatchObject({ code: 'IO' });
  expect(existsSync(target)).toBe(false);
  rmSync(transcript);
  await expect(harness.service.api['fork.create']({ nodeId: 'a2', dir: target })).rejects.toMatchObject({ code: 'IO' });
  expect(existsSync(target)).toBe(false);
});
