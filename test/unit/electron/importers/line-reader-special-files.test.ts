/**
 * Regression (issue 13): a path that discovery saw as a file but is a FIFO when read (swapped meanwhile) made
 * the reader's open() wait for a writer forever. It is opened without blocking and refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readLines } from '../../../../electron/importers/line-reader';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-line-reader-fifo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('refuses a FIFO at once instead of waiting in open() for a writer', async () => {
  const fifo = join(dir, 'swapped.jsonl');
  execFileSync('mkfifo', [fifo]);
  const lines: unknown[] = [];
  await expect(readLines(fifo, (line) => lines.push(line))).rejects.toMatchObject({ code: 'EINVAL' });
  expect(lines).toEqual([]);
});

it('refuses a character device, which would never end', async () => {
  await expect(readLines('/dev/zero', () => undefined)).rejects.toMatchObject({ code: 'EINVAL' });
});
