/**
 * Codex lineage (issue 14): rollouts that go on from another thread, linked into one tree as they are read.
 * - A fork (`session_meta.forked_from_id`) is a new rollout that Codex seeds with its source's rollout items,
 *   written again line by line (codex-rs core `ThreadManager::fork_thread` loads the source's rollout,
 *   `fork_history_from_snapshot` cuts it at a user turn, and the new session's `record_initial_history` for
 *   `InitialHistory::Forked` calls `persist_rollout_items` on them): same payloads, new line timestamps. Those
 *   copies are matched to the source's steps by content in order (the longest common prefix) and emitted as the
 *   source's nodes (`forkedFrom`), so the shared prefix is stored once, whichever file is imported first and
 *   however the fork is appended; the fork's own first step hangs from the fork point.
 * - A rollout without `forked_from_id` whose history opens with another thread's `session_meta` (a resume
 *   written into a new file) is matched the same way and continues that thread.
 * - A subagent (`source.subagent.thread_spawn.parent_thread_id`) is read as a subagent file of its parent's
 *   session (registry.ts); its root hangs from the `spawn_agent` call whose `collab_agent_spawn_end` event
 *   (`new_thread_id`) or output (`{"agent_id": …}`) names it (codex-rs core `multi_agents` spawn handler).
 * The source is found on disk beside the rollout or under the same Codex home; when it is not there, the
 * rollout keeps `linkedSession` on its first node and the store links the two without a shared prefix.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { headLines, parseJsonObject, readFileHead } from '../file-head';
import type { ParsedNode, ParsedRecord, ParseOptions, ParseResult, ParseSink, TranscriptFile } from '../transcript';
import { readSessionMeta } from './rollout-entry';

export type RolloutParse = (file: TranscriptFile, sink: ParseSink, options: ParseOptions & { readonly lineage?: false }) => Promise<ParseResult>;

/** What a rollout's first lines say about the threads it goes on from. */
export interface HeadLineage {
  readonly threadId: string | null;
  readonly forkedFromId: string | null;
  readonly parentThreadId: string | null;
  /** The thread a resume written into a new file continues: a second `session_meta` naming another id. */
  readonly continuesId: string | null;
}

const NO_LINEAGE: HeadLineage = { threadId: null, forkedFromId: null, parentThreadId: null, continuesId: null };

/** From a rollout's first lines (a first line cut at the head's size still shows its leading ids). */
export function headLineage(lines: readonly string[]): HeadLineage {
  let first: HeadLineage | null = null;
  for (const line of lines) {
    const value = parseJsonObject(line);
    if (value === null) {
      if (first === null && line.includes('"session_meta"')) first = { ...NO_LINEAGE, threadId: cutField(line, 'id'), forkedFromId: cutField(line, 'forked_from_id'), parentThreadId: cutField(line, 'parent_thread_id') };
      continue;
    }
    if (value.type !== 'session_meta' || !isObject(value.payload)) continue;
    const meta = readSessionMeta(value.payload as JsonObject);
    if (first === null) first = { threadId: meta.id, forkedFromId: meta.forkedFromId, parentThreadId: meta.parentThreadId, continuesId: null };
    else if (meta.id !== null && meta.id !== first.threadId) return first.forkedFromId === null ? { ...first, continuesId: meta.id } : first;
  }
  return first ?? NO_LINEAGE;
}

export async function readHeadLineage(path: string): Promise<HeadLineage> {
  const head = await readFileHead(path).catch(() => null);
  return head === null ? NO_LINEAGE : headLineage(headLines(head, 12));
}

function cutField(line: string, field: string): string | null {
  return new RegExp(`"${field}":"([^"]+)"`).exec(line)?.[1] ?? null;
}

/** Where the copies of a rollout's source are, once matched: each copy's own id → the source's node. */
interface Origin {
  readonly kind: 'fork' | 'continues';
  readonly threadId: string;
  readonly copies: ReadonlyMap<string, ParsedNode>;
  /** The rollout's own `session_meta` node: a record once its history is the source's (the fork starts there). */
  readonly ownMetaId: string | null;
  /** The source's node the last copy is: what the rollout's first own step hangs from. */
  readonly forkPoint: string | null;
}

function lastValue<T>(map: ReadonlyMap<string, T>): T | undefined {
  let last: T | undefined;
  for (const value of map.values()) last = value;
  return last;
}

/**
 * Parses `file` with its lineage: the copies of its source as the source's nodes, spawns named. `seen` stops a
 * chain of forks that loops back on itself.
 */
export async function parseWithLineage(file: TranscriptFile, sink: ParseSink, options: ParseOptions, parse: RolloutParse, seen: ReadonlySet<string> = new Set()): Promise<ParseResult> {
  const origin = await originOf(file, options.signal, parse, seen);
  const lineageSink = new LineageSink(sink, origin);
  if (origin === null) return parse(file, lineageSink, { ...options, lineage: false });
  // Its copies are matched over the whole file on every reading (originOf), so nothing is kept to resume from.
  const end = await parse(file, lineageSink, { ...options, resumeState: null, lineage: false });
  return { endOffset: end.endOffset, endLine: end.endLine, resumeState: null };
}

async function originOf(file: TranscriptFile, signal: AbortSignal | undefined, parse: RolloutParse, seen: ReadonlySet<string>): Promise<Origin | null> {
  const head = await readHeadLineage(file.path);
  const kind = head.forkedFromId !== null ? 'fork' : head.continuesId !== null ? 'continues' : null;
  const sourceId = head.forkedFromId ?? head.continuesId;
  if (kind === null || sourceId === null || seen.has(sourceId)) return null;
  const sourcePath = await findRollout(sourceId, file.path);
  if (sourcePath === null) return null;
  const info = await stat(sourcePath);
  const sourceFile: TranscriptFile = { format: 'codex', path: sourcePath, size: info.size, mtimeMs: info.mtimeMs, role: 'main', sessionHint: sourceId, agentId: null };
  const source: ParsedNode[] = [];
  const ignore = { record: () => {}, problem: () => {} };
  const own = head.threadId ?? file.sessionHint ?? '';
  await parseWithLineage(sourceFile, { ...ignore, node: (node) => source.push(node) }, { startOffset: 0, startLine: 1, signal }, parse, new Set([...seen, own]));
  const mine: ParsedNode[] = [];
  await parse(file, { ...ignore, node: (node) => mine.push(node) }, { startOffset: 0, startLine: 1, signal, lineage: false });
  const copies = matchCopies(mine, source);
  // Decided by the source being found, not by what matched so far: a fork read in pieces may not show its copies yet.
  const ownMetaId = mine[0] !== undefined && isSessionMeta(mine[0]) ? mine[0].sourceId : null;
  return { kind, threadId: sourceId, copies, ownMetaId, forkPoint: lastValue(copies)?.sourceId ?? null };
}

/**
 * The rollout's copied lines (after its own `session_meta`) matched to the source's steps in order, by what they
 * say (timestamps and ordinals aside): the longest common prefix. The source's own `session_meta` is skipped
 * when the copy does not repeat it.
 */
export function matchCopies(mine: readonly ParsedNode[], source: readonly ParsedNode[]): Map<string, ParsedNode> {
  const copies = new Map<string, ParsedNode>();
  const meta = mine[0] !== undefined && isSessionMeta(mine[0]) ? mine[0] : null;
  // Codex writes the copies at once when the fork starts: a step stamped later is the fork's own, even when it
  // says what the source said next (the same prompt sent again).
  const copiedBy = meta?.timestamp == null ? null : Date.parse(meta.timestamp) + COPY_WINDOW_MS;
  const moved = folderMove(meta, source[0]);
  let i = meta === null ? 0 : 1;
  let j = 0;
  while (i < mine.length && j < source.length) {
    const stamped = mine[i]!.timestamp === null ? null : Date.parse(mine[i]!.timestamp!);
    if (copiedBy !== null && stamped !== null && stamped > copiedBy) break;
    const key = contentKey(mine[i]!, moved);
    if (key !== contentKey(source[j]!)) {
      if (copies.size === 0 && isSessionMeta(source[j]!)) {
        j++;
        continue;
      }
      break;
    }
    copies.set(mine[i]!.sourceId, source[j]!);
    i++;
    j++;
  }
  return copies;
}

/** How long after its session_meta a fork's copied lines may be stamped. */
const COPY_WINDOW_MS = 5_000;

/**
 * The fork's folder back to the source's, in a copied line's text: Arbor's own fork writer (electron/forks/codex/)
 * moves the source folder's paths in the copied history into the fork's folder, so its copies say the same as the
 * source's lines but for that folder. Null when both session_meta lines name the same folder (Codex's own forks).
 */
function folderMove(meta: ParsedNode | null, sourceFirst: ParsedNode | undefined): ((text: string) => string) | null {
  if (meta === null || sourceFirst === undefined || !isSessionMeta(sourceFirst)) return null;
  const to = metaCwd(meta);
  const from = metaCwd(sourceFirst);
  if (to === null || from === null || to === from) return null;
  // As the paths appear inside JSON strings.
  const [toText, fromText] = [JSON.stringify(to).slice(1, -1), JSON.stringify(from).slice(1, -1)];
  return (text) => text.replaceAll(toText, fromText);
}

function metaCwd(node: ParsedNode): string | null {
  const payload = parseJsonObject(node.raw.toString('utf8'))?.payload;
  return isObject(payload) && typeof payload.cwd === 'string' && payload.cwd !== '' ? payload.cwd : null;
}

/** A line's type and payload (its timestamp and ordinal are the copy's own), hashed; `moved` maps a fork's folder back. */
export function contentKey(node: Pick<ParsedNode, 'raw' | 'rawBytes'>, moved: ((text: string) => string) | null = null): string {
  const read = node.raw.toString('utf8');
  const text = moved === null ? read : moved(read);
  let body: string;
  if (node.raw.length < node.rawBytes) body = `${node.rawBytes}:${text.replace(/^\{"timestamp":"[^"]*",/, '{')}`;
  else {
    const value = parseJsonObject(text);
    body = value === null ? text : JSON.stringify([value.type, value.payload]);
  }
  return createHash('sha1').update(body).digest('base64');
}

function isSessionMeta(node: ParsedNode): boolean {
  return node.raw.subarray(0, 80).includes('"type":"session_meta"');
}

/** The rollout of `threadId`: beside `near` first, else anywhere under the Codex home `near` is in. */
export async function findRollout(threadId: string, near: string): Promise<string | null> {
  const named = (name: string) => name.includes(threadId) && /\.jsonl(\.zst)?$/.test(name);
  const beside = await readdir(dirname(near)).catch(() => [] as string[]);
  const here = beside.filter(named).sort(plainFirst)[0];
  if (here !== undefined) return join(dirname(near), here);
  let home: string | null = null;
  for (let dir = dirname(near); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'sessions' || basename(dir) === 'archived_sessions') {
      home = dirname(dir);
      break;
    }
  }
  if (home === null) return null;
  for (const top of ['sessions', 'archived_sessions']) {
    const found = await findBelow(join(home, top), named, 4);
    if (found !== null) return found;
  }
  return null;
}

async function findBelow(dir: string, named: (name: string) => boolean, depth: number): Promise<string | null> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const file = entries.filter((entry) => entry.isFile() && named(entry.name)).map((entry) => entry.name).sort(plainFirst)[0];
  if (file !== undefined) return join(dir, file);
  if (depth === 0) return null;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const found = await findBelow(join(dir, entry.name), named, depth - 1);
    if (found !== null) return found;
  }
  return null;
}

function plainFirst(a: string, b: string): number {
  return Number(a.endsWith('.zst')) - Number(b.endsWith('.zst'));
}

/** Emits copies as their source's nodes, the rest with parents that name copies given the originals, and spawns named. */
class LineageSink implements ParseSink {
  /** spawn_agent call id → the thread it started (`collab_agent_spawn_end.new_thread_id`). */
  private readonly spawned = new Map<string, string>();

  constructor(
    private readonly inner: ParseSink,
    private readonly origin: Origin | null,
  ) {}

  node(node: ParsedNode): void {
    const origin = this.origin;
    if (origin !== null) {
      if (node.sourceId === origin.ownMetaId) {
        // Its history is the source's: the fork's first own step hangs from the fork point, not from this line.
        this.inner.record({ type: 'session_meta', refSourceId: null, summary: null, sessionSourceId: node.sessionSourceId, line: node.line, offset: node.offset, raw: node.raw, rawBytes: node.rawBytes });
        return;
      }
      const original = origin.copies.get(node.sourceId);
      if (original !== undefined) {
        this.inner.node({
          ...original,
          line: node.line,
          offset: node.offset,
          forkedFrom: { sessionId: origin.threadId, messageUuid: original.sourceId, copyUuid: node.sourceId, ...(origin.kind === 'continues' ? { kind: 'continues' as const } : {}) },
        });
        return;
      }
    }
    this.inner.node(this.withSpawn(this.withOriginalParent(node)));
  }

  record(record: ParsedRecord): void {
    if (record.raw.includes('collab_agent_spawn_end')) this.noteSpawn(record.raw);
    const ref = this.original(record.refSourceId);
    this.inner.record(ref === record.refSourceId ? record : { ...record, refSourceId: ref });
  }

  problem(problem: Parameters<ParseSink['problem']>[0]): void {
    this.inner.problem(problem);
  }

  private withOriginalParent(node: ParsedNode): ParsedNode {
    const parent = this.original(node.parentSourceId);
    return parent === node.parentSourceId ? node : { ...node, parentSourceId: parent };
  }

  /** A copy's id → its original; the rollout's own session_meta (a record here) → the fork point. */
  private original(id: string | null): string | null {
    const origin = this.origin;
    if (id === null || origin === null) return id;
    if (id === origin.ownMetaId) return origin.forkPoint;
    return origin.copies.get(id)?.sourceId ?? id;
  }

  /** A spawn_agent output names the thread it started: the subagent rollout's root hangs from that call. */
  private withSpawn(node: ParsedNode): ParsedNode {
    const result = node.toolResults[0];
    if (result === undefined || node.spawnedAgentId !== null) return node;
    const thread = this.spawned.get(result.toolUseId) ?? (node.raw.includes('agent_id') ? spawnOutputThread(node.raw) : null);
    return thread === null ? node : { ...node, spawnedAgentId: thread };
  }

  private noteSpawn(raw: Buffer): void {
    const payload = parseJsonObject(raw.toString('utf8'))?.payload;
    if (!isObject(payload) || payload.type !== 'collab_agent_spawn_end') return;
    if (typeof payload.call_id === 'string' && typeof payload.new_thread_id === 'string') this.spawned.set(payload.call_id, payload.new_thread_id);
  }
}

function spawnOutputThread(raw: Buffer): string | null {
  const payload = parseJsonObject(raw.toString('utf8'))?.payload;
  if (!isObject(payload) || typeof payload.output !== 'string') return null;
  const output = parseJsonObject(payload.output);
  return output !== null && typeof output.agent_id === 'string' ? output.agent_id : null;
}
