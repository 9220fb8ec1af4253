/**
 * What a rollout's parse keeps between imports (issue 12), so an append reads the appended lines only: a
 * rollout's lines depend on the ones before (a step's parent is the step before it, a result's label names its
 * call, a repeated call id is numbered by its uses), and re-reading a 100 MB rollout from its start to emit a
 * few new lines made every append cost the whole file. Stored with the file as JSON, beside the offset it was
 * taken at, and only trusted while the file's first bytes and the bytes just before that offset are unchanged:
 * a rewritten file is read from its start again. The calls seen, which grow with the rollout, are kept by key
 * apart from it (RolloutCalls, ParseResult.resumeKeys): an append looks up the few its lines name and writes
 * back the ones it changed, where reading, rebuilding and writing all of them was most of an append's cost.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { ResumeKeys } from '../transcript';

/** The parser's state after the last line it read (parse-rollout.ts `RolloutState`). */
export interface RolloutSnapshot {
  readonly threadId: string;
  readonly cwd: string | null;
  readonly model: string | null;
  readonly version: string | null;
  readonly gitBranch: string | null;
  readonly previous: string | null;
  readonly seenMeta: boolean;
  readonly forked: boolean;
  /** Raw call id → the stored id of its open (unanswered) use. */
  readonly openCalls: readonly (readonly [id: string, stored: string])[];
  /** Role → the last message's stream, text and node, to fold its echo from the other stream. */
  readonly echoes: readonly (readonly [role: string, source: 'event' | 'item', text: string, sourceId: string])[];
}

interface StoredState extends RolloutSnapshot {
  readonly v: typeof VERSION;
  /** The offset just after the last line read, and the number of the next line. */
  readonly at: number;
  readonly line: number;
  readonly head: string;
  readonly before: string;
}

/** 2: the calls seen are kept by key (RolloutCalls); a version-1 state held them inline and is read from the start. */
const VERSION = 2;
/** Bytes of the file's start, and before the resume point, that must be as they were. */
const CHECK_BYTES = 4096;

/** The state to store after a read that ended at `end`. */
export async function saveResumeState(path: string, end: { readonly endOffset: number; readonly endLine: number }, snapshot: RolloutSnapshot): Promise<string> {
  const checks = await fingerprint(path, end.endOffset);
  const stored: StoredState = { v: VERSION, at: end.endOffset, line: end.endLine, ...checks, ...snapshot };
  return JSON.stringify(stored);
}

/**
 * The stored state when it fits a read from `startOffset`: taken there, by this version, of this file as it still
 * is up to there. Null: read from the start.
 */
export async function loadResumeState(path: string, startOffset: number, resumeState: string | null | undefined): Promise<(RolloutSnapshot & { readonly at: number; readonly line: number }) | null> {
  if (resumeState == null || startOffset <= 0) return null;
  let stored: StoredState;
  try {
    stored = JSON.parse(resumeState) as StoredState;
  } catch {
    return null;
  }
  if (stored.v !== VERSION || stored.at !== startOffset) return null;
  const checks = await fingerprint(path, stored.at).catch(() => null);
  if (checks === null || checks.head !== stored.head || checks.before !== stored.before) return null;
  return stored;
}

async function fingerprint(path: string, at: number): Promise<{ head: string; before: string }> {
  const handle = await open(path, 'r');
  try {
    const read = async (position: number, length: number): Promise<string> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('base64');
    };
    const span = Math.min(CHECK_BYTES, at);
    return { head: await read(0, span), before: await read(at - span, span) };
  } finally {
    await handle.close();
  }
}

/** A call id seen: how many times (a repeated id is numbered by its use) and its tool's name. */
interface SeenCall {
  uses: number;
  name: string | null;
}

const CALL_KEY = 'call:';

/**
 * Every call id the rollout used so far: those of this read, and those an earlier read kept by key, looked up
 * when a line names them (null lookup: nothing was kept, a read from the start).
 */
export class RolloutCalls {
  private readonly seen = new Map<string, SeenCall>();
  private readonly changed = new Set<string>();

  constructor(private readonly lookup: ((key: string) => string | null) | null) {}

  /** Counts a use of `id`; returns which use it is (1: its first). */
  use(id: string): number {
    const call = this.get(id) ?? { uses: 0, name: null };
    call.uses += 1;
    this.seen.set(id, call);
    this.changed.add(id);
    return call.uses;
  }

  /** After `use`: the tool the call named. */
  setName(id: string, name: string): void {
    const call = this.get(id);
    if (call === undefined || call.name === name) return;
    call.name = name;
    this.changed.add(id);
  }

  name(id: string): string | null {
    return this.get(id)?.name ?? null;
  }

  /** What to keep for the next read: the calls this read used, replacing every kept one when it read from the start. */
  keys(): ResumeKeys {
    const entries: (readonly [string, string])[] = [];
    for (const id of this.changed) {
      const call = this.seen.get(id)!;
      entries.push([`${CALL_KEY}${id}`, JSON.stringify([call.uses, call.name])]);
    }
    return { whole: this.lookup === null, entries };
  }

  private get(id: string): SeenCall | undefined {
    const known = this.seen.get(id);
    if (known !== undefined || this.lookup === null) return known;
    const kept = this.lookup(`${CALL_KEY}${id}`);
    if (kept === null) return undefined;
    const [uses, name] = JSON.parse(kept) as [number, string | null];
    const call = { uses, name };
    this.seen.set(id, call);
    return call;
  }
}
