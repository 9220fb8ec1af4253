/**
 * File contents met during a reconstruction, each kept once and named by its hash, so per-node state is a
 * map of small ids rather than copies of whole files.
 *
 * A text is kept as the ids of its lines, each distinct line once: a session edits the same files again and
 * again, and every Edit result carries the whole file before it, so whole texts (even deduplicated) grew with
 * every edit: 106 MB of distinct texts on a 1 GB transcript, 211 MB as the edits held them. Versions of one
 * file share nearly all their lines, so a version costs 4 bytes a line. A text is joined again when asked for;
 * the few asked for last are kept joined (a state lists its files, a replay asks for the same file twice).
 */
import { createHash } from 'node:crypto';
import type { BeforeSource, ContextHunk, FileEffect, PatchHunk, StringReplacement } from '../../importers/transcript';
import { UNKNOWN_CONTENT, type FileContent } from './file-edits';

/** A content's id: a sha1 hex, or one of the two states that have no text. */
export type ContentId = string;
export const ABSENT_ID: ContentId = 'absent';
export const UNKNOWN_ID: ContentId = 'unknown';

/** Joined texts kept for the next contentOf: a state's files (tens) and a replay's current file. */
const JOINED_KEPT = 64;

export class ContentStore {
  private readonly texts = new Map<ContentId, Int32Array>();
  private readonly lineIds = new Map<string, number>();
  private readonly lines: string[] = [];
  // Map keeps insertion order: the first key is the least recently joined.
  private readonly joined = new Map<ContentId, string>();

  idOf(content: FileContent): ContentId {
    if (content === null) return ABSENT_ID;
    if (content === UNKNOWN_CONTENT) return UNKNOWN_ID;
    const id = createHash('sha1').update(content, 'utf8').digest('hex');
    if (!this.texts.has(id)) this.texts.set(id, this.lineIdsOf(content));
    return id;
  }

  contentOf(id: ContentId): FileContent {
    if (id === ABSENT_ID) return null;
    if (id === UNKNOWN_ID) return UNKNOWN_CONTENT;
    const hit = this.joined.get(id);
    if (hit !== undefined) {
      this.joined.delete(id);
      this.joined.set(id, hit);
      return hit;
    }
    const ids = this.texts.get(id);
    if (ids === undefined) return UNKNOWN_CONTENT;
    const text = this.linesOf(ids).join('\n');
    this.joined.set(id, text);
    if (this.joined.size > JOINED_KEPT) this.joined.delete(this.joined.keys().next().value as ContentId);
    return text;
  }

  /** How many distinct texts are kept. */
  get size(): number {
    return this.texts.size;
  }

  /** How many distinct lines the texts share (a figure for tests and benches). */
  get lineCount(): number {
    return this.lines.length;
  }

  /** The ids of these lines, each distinct line kept once. */
  idsOfLines(parts: readonly string[]): Int32Array {
    const ids = new Int32Array(parts.length);
    for (let k = 0; k < parts.length; k++) {
      const line = parts[k]!;
      let lineId = this.lineIds.get(line);
      if (lineId === undefined) {
        lineId = this.lines.length;
        // split() hands out slices of the whole text (V8, 13 chars and up): a copy keeps the line without the text
        // it was cut from. Through JSON, as UTF-8 would replace a lone surrogate.
        const own = line.length < 13 ? line : (JSON.parse(JSON.stringify(line)) as string);
        this.lines.push(own);
        this.lineIds.set(own, lineId);
      }
      ids[k] = lineId;
    }
    return ids;
  }

  linesOf(ids: Int32Array): string[] {
    const parts = new Array<string>(ids.length);
    for (let k = 0; k < ids.length; k++) parts[k] = this.lines[ids[k]!]!;
    return parts;
  }

  private lineIdsOf(text: string): Int32Array {
    return this.idsOfLines(text.split('\n'));
  }
}

const NO_MARK = -1;

interface KeptHunk extends Omit<PatchHunk, 'lines'> {
  /** Each line's first UTF-16 unit, NO_MARK for an empty line. */
  readonly marks: Int32Array;
  readonly lines: Int32Array;
}

/**
 * A file effect as the reconstruction keeps it while it reads a session: its contents in the store, by id
 * (the result's whole file would otherwise stay in memory for every edit until the replay). Its before and
 * after are joined again when read.
 */
export class KeptEffect implements FileEffect {
  readonly tool: string;
  readonly toolUseId: string;
  readonly path: string;
  readonly source: BeforeSource;
  readonly replacements: readonly StringReplacement[];
  readonly contextPatch?: readonly ContextHunk[];
  readonly from?: string;
  readonly beforeId: ContentId;
  readonly afterId: ContentId;
  private readonly hunks: readonly KeptHunk[];

  constructor(
    effect: FileEffect,
    private readonly store: ContentStore,
  ) {
    this.tool = effect.tool;
    this.toolUseId = effect.toolUseId;
    this.path = effect.path;
    this.source = effect.source;
    // A hunk's lines are a mark (+, -, space) and a line of the file: the file's lines are in the store already.
    this.hunks = effect.patch.map(({ lines, ...at }) => ({ ...at, marks: Int32Array.from(lines, (line) => (line === '' ? NO_MARK : line.charCodeAt(0))), lines: store.idsOfLines(lines.map((line) => line.slice(1))) }));
    this.replacements = effect.replacements;
    if (effect.contextPatch !== undefined) this.contextPatch = effect.contextPatch;
    if (effect.from !== undefined) this.from = effect.from;
    this.beforeId = store.idOf(effect.before);
    this.afterId = store.idOf(effect.after);
  }

  get patch(): readonly PatchHunk[] {
    return this.hunks.map(({ marks, lines, ...at }) => ({ ...at, lines: this.store.linesOf(lines).map((line, k) => (marks[k] === NO_MARK ? '' : String.fromCharCode(marks[k]!)) + line) }));
  }

  get before(): FileContent {
    return this.store.contentOf(this.beforeId);
  }

  get after(): FileContent {
    return this.store.contentOf(this.afterId);
  }

  /** The effect as the reader gave it (a plain object, with its texts). */
  whole(): FileEffect {
    const { tool, toolUseId, path, before, after, source, patch, replacements, contextPatch, from } = this;
    return { tool, toolUseId, path, before, after, source, patch, replacements, ...(contextPatch === undefined ? {} : { contextPatch }), ...(from === undefined ? {} : { from }) };
  }
}
