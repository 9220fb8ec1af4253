/**
 * Claude Code's 2026 records through a real import (issue 13): titles (custom-title, ai-title, summary, first
 * prompt), and every line accounted for (a uuid repeated with other content, a truncated last line later
 * completed). Fixtures are written by Arbor's own generator; tests are named after the shape.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { answer, caveatAndClear, titleBuilder } from '../service/generated-titles';
import { type Harness, openHarness } from '../service/service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const SESSION = '7a7a7a7a-0000-4000-8000-000000000001';
const file = (sessionId = SESSION) => join(h.projects, '-work-app', `${sessionId}.jsonl`);
const titleOf = async (id = SESSION) => (await h.service.api['sessions.list']({ limit: 10 })).sessions.find((s) => s.id === id)?.title;
const importAll = () => h.service.api['import.run']({ paths: [h.projects] });

function write(path: string, lines: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
}
const append = (path: string, lines: readonly string[]) => appendFileSync(path, lines.map((line) => `${line}\n`).join(''));

function conversation(b: TranscriptBuilder): void {
  caveatAndClear(b);
  b.userPrompt('Make the loader retry on timeouts');
  answer(b, 'Done.');
}

describe('titles', () => {
  it('custom-title: the last one wins over ai-title, summary and the first prompt', async () => {
    const b = titleBuilder(SESSION, 1);
    conversation(b);
    b.summary('Loader retries', b.last!);
    b.aiTitle('Retry loader on timeout');
    b.customTitle('first name');
    b.customTitle('My retry work');
    b.aiTitle('A newer AI title');
    write(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('My retry work');
  });

  it('ai-title: the newest one wins over a summary when no custom title exists', async () => {
    const b = titleBuilder(SESSION, 2);
    conversation(b);
    b.summary('Loader retries', b.last!);
    b.aiTitle('Retry loader on timeout');
    b.aiTitle('Loader retries with backoff');
    write(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('Loader retries with backoff');
  });

  it('summary, then the first real prompt (never a caveat, command echo, hook line or model-switch notice)', async () => {
    const b = titleBuilder(SESSION, 3);
    b.hookProgress('SessionStart', 'SessionStart:startup', 'start.sh', 'toolu_x');
    caveatAndClear(b);
    b.userPrompt('<local-command-stdout>Set model to opus</local-command-stdout>');
    b.modelFallback('claude-opus-4-5', 'claude-sonnet-4-5');
    b.userPrompt('Make the loader retry on timeouts');
    answer(b, 'Done.');
    write(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('Make the loader retry on timeouts');

    const withSummary = titleBuilder('7a7a7a7a-0000-4000-8000-000000000002', 4);
    conversation(withSummary);
    withSummary.summary('Loader retries', withSummary.last!);
    write(file('7a7a7a7a-0000-4000-8000-000000000002'), withSummary.take());
    await importAll();
    expect(await titleOf('7a7a7a7a-0000-4000-8000-000000000002')).toBe('Loader retries');
  });

  it('custom-title in an append: a later custom title changes the title, even in an append without nodes', async () => {
    const b = titleBuilder(SESSION, 5);
    conversation(b);
    b.customTitle('Before');
    write(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('Before');
    b.customTitle('After');
    append(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('After');
    b.aiTitle('An AI title does not beat a custom one');
    b.userPrompt('one more thing');
    append(file(), b.take());
    await importAll();
    expect(await titleOf()).toBe('After');
  });
});

describe('every line accounted for', () => {
  it('a uuid repeated with different content is kept as a variant of its node and reported with file and line', async () => {
    const b = titleBuilder(SESSION, 6);
    conversation(b);
    const lines = b.take();
    const prompt = JSON.parse(lines[3]!) as { uuid: string; message: { content: string } };
    // The same uuid again, saying something else (a hand-edited or damaged transcript).
    const variant = JSON.stringify({ ...prompt, message: { role: 'user', content: 'Make the loader give up on timeouts' } });
    write(file(), [...lines, variant]);
    const result = await importAll();
    expect(result.problems).toEqual([
      { file: file(), line: lines.length + 1, reason: `uuid ${prompt.uuid} repeats with different content (first at ${file()}:4): kept as a variant of that node` },
    ]);
    const node = await h.service.api['nodes.get']({ nodeId: prompt.uuid });
    expect(JSON.parse(node.raw).message.content).toBe('Make the loader retry on timeouts');
    expect(node.records).toEqual([{ type: 'variant', file: file(), line: lines.length + 1, json: JSON.parse(variant) }]);
  });

  it('a copy of a uuid in another file (a resume, a fork: only the session and folder differ) is not a variant', async () => {
    const b = titleBuilder(SESSION, 7);
    conversation(b);
    const lines = b.take();
    write(file(), lines);
    const other = '7a7a7a7a-0000-4000-8000-000000000009';
    write(file(other), lines.map((line) => line.split(SESSION).join(other).replace('"cwd":"/work/app"', '"cwd":"/work/app2"')));
    const result = await importAll();
    expect(result.problems).toEqual([]);
  });

  it('a truncated last line is reported on every import while it stays truncated, not only the first', async () => {
    const b = titleBuilder(SESSION, 8);
    conversation(b);
    const lines = b.take();
    const last = lines.at(-1)!;
    mkdirSync(dirname(file()), { recursive: true });
    writeFileSync(file(), lines.slice(0, -1).map((line) => `${line}\n`).join('') + last.slice(0, 30));
    const truncated = (bytes: number) => [{ file: file(), line: lines.length, reason: `truncated: ends with an incomplete line (${bytes} bytes), will be read when complete` }];
    // Truncated, first met.
    expect((await importAll()).problems).toEqual(truncated(30));
    // Unchanged and still truncated: the file is not read again, the line is still reported.
    expect((await importAll()).problems).toEqual(truncated(30));
    // Grown, and still truncated.
    appendFileSync(file(), last.slice(30, 50));
    expect((await importAll()).problems).toEqual(truncated(50));
    await expect(h.service.api['nodes.get']({ nodeId: (JSON.parse(last) as { uuid: string }).uuid })).rejects.toThrow();
    // Completed: imported, and no longer reported.
    appendFileSync(file(), `${last.slice(50)}\n`);
    expect((await importAll()).problems).toEqual([]);
    expect((await importAll()).problems).toEqual([]);
    const id = (JSON.parse(last) as { uuid: string }).uuid;
    const node = await h.service.api['nodes.get']({ nodeId: id });
    expect(node.raw).toBe(last);
    expect(node.line).toBe(lines.length);
    expect(readFileSync(file(), 'utf8').endsWith(`${last}\n`)).toBe(true);
  });
});
