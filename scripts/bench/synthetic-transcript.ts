/**
 * The benches' single big Claude Code transcript (bench:import, bench:states): one generated session
 * (electron/demo/synthetic.ts: edits, Write, Bash, parallel calls, file-history backups) of about `targetMb` MB,
 * written once and reused by the next run, its last APPENDED_LINES lines held back in `<file>.tail`.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syntheticSessionLines } from '../../electron/demo/synthetic';

const MiB = 1024 * 1024;
export const APPENDED_LINES = 100;
/** Bytes per node of the generator's sessions, to size a single transcript (measured: ~2.9 KB). */
const BYTES_PER_NODE = 2900;

/** One generated session written as a Claude Code transcript, its last lines held back in `<file>.tail`. */
export async function writeSingleTranscript(projects: string, targetMb: number): Promise<{ file: string; tail: string }> {
  const dir = join(projects, '-home-dev-projects-big');
  const file = join(dir, `single-${targetMb}mb.jsonl`);
  const tail = `${file}.tail`;
  if (existsSync(file) && existsSync(tail)) return { file, tail };
  await mkdir(dir, { recursive: true });
  // Written beside and renamed when whole: a run stopped mid-way (or another run reading the kept inputs
  // meanwhile) never takes a half-written transcript for a generated one.
  const partial = `${file}.partial-${process.pid}`;
  const stream = createWriteStream(partial);
  const held: string[] = [];
  let chunk = '';
  const nodes = Math.ceil((targetMb * MiB) / BYTES_PER_NODE);
  for (const line of syntheticSessionLines(nodes, { seed: 7, sessionId: `single-${targetMb}mb` })) {
    held.push(line);
    if (held.length <= APPENDED_LINES) continue;
    chunk += `${held.shift()!}\n`;
    if (chunk.length >= 256 * 1024) {
      if (!stream.write(chunk)) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end(chunk);
  await once(stream, 'finish');
  await rename(partial, file);
  await writeFile(tail, held.map((line) => `${line}\n`).join(''));
  return { file, tail };
}
