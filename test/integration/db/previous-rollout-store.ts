/**
 * The Codex rollout the parser-state migration tests (040, 045) start from: one rollout of ten turns imported into
 * a current store, then that store's rows copied into a file migrated only up to `before` (previous-schema.ts),
 * and a reader that records how many bytes each parse read (what an append must keep small).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { WritableDB } from '../../../electron/db/database';
import { migrate, MIGRATIONS } from '../../../electron/db/migrations';
import { openSessionStore } from '../../../electron/db/session-store';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { importSessions, type TranscriptReader } from '../../../electron/service/import-sessions';
import { transcriptReader } from '../../../electron/service/transcript-reader';

const TABLES = ['sessions', 'session_aliases', 'files', 'nodes', 'edges', 'tool_calls', 'tool_results', 'records', 'link_waiting', 'prompt_times', 'node_usage'];

/** `count` more turns of `builder`'s rollout from turn `from`, as the lines a Codex CLI appends. */
export function turns(builder: RolloutBuilder, from: number, count: number): string {
  for (let turn = from; turn < from + count; turn++) {
    builder.user(`Turn ${turn}`).command(`npm test -- ${turn}`, { exitCode: 0, output: `ok ${turn}\n` }).agent(`Done ${turn}`).complete();
  }
  return builder.drain().map((line) => `${line}\n`).join('');
}

export interface PreviousRolloutStore {
  readonly folder: string;
  readonly file: string;
  readonly builder: RolloutBuilder;
  /** The store made by the current schema, the rows' source. */
  readonly currentPath: string;
  /** The store migrated up to `before`, its rows copied in, still open for the test to check or adjust. */
  readonly old: WritableDB;
  readonly oldPath: string;
  readonly tables: readonly string[];
}

/** A ten-turn rollout `id` imported under `root`, and a store made by the schema before migration `before`. */
export async function previousRolloutStore(root: string, id: string, before: number): Promise<PreviousRolloutStore> {
  const folder = join(root, 'sessions');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `rollout-2026-11-30T09-00-00-${id}.jsonl`);
  const builder = new RolloutBuilder({ id, cwd: '/work/app' });
  writeFileSync(file, turns(builder, 0, 10));
  const currentPath = join(root, 'current.sqlite');
  const current = openSessionStore(currentPath);
  try {
    await importSessions(current, transcriptReader, [folder], { jobId: 'first' });
  } finally {
    current.close();
  }
  const oldPath = join(root, 'old.sqlite');
  const old = new Database(oldPath) as WritableDB;
  migrate(old, MIGRATIONS.filter((migration) => migration.version < before));
  return { folder, file, builder, currentPath, old, oldPath, tables: TABLES };
}

/** The transcript reader, pushing the bytes each parse read onto `reads`. */
export function countingReader(reads: number[]): TranscriptReader {
  return {
    ...transcriptReader,
    parse: (transcript, sink, options) => transcriptReader.parse(transcript, sink, { ...options, onBytes: (bytes) => reads.push(bytes) }),
  };
}
