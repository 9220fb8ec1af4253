/**
 * File contents met during a reconstruction, each kept once and named by its hash, so per-node state is a
 * map of small ids rather than copies of whole files.
 *
 * A text is kept as the ids of its runs of lines, each distinct run once: a session edits the same files again
 * and again, and every Edit result carries the whole file before it, so whole texts (even deduplicated) grew
 * with every edit: 106 MB of distinct texts on a 1 GB transcript, 211 MB as the edits held them. Versions of
 * one file share nearly all their runs, so a version costs its edited runs and 4 bytes a run. A text is joined
 * again when asked for; the few asked for last are kept joined (a state lists its files, a replay asks for the
 * same file twice).
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

/**
 * A run of lines ends after a line whose length and first, middle and last units give 0 here (one line in
 * RUN_LINES on average), or past RUN_MAX units: the cut depends on the lines alone, so past an edited line the
 * runs of two versions line up again. Runs rather than lines: a map lookup per line took a third of a 239 MB
 * session's states CPU.
 */
const RUN_LINES = 8;
const RUN_MAX = 2048;

export class ContentStore {
  private readonly texts = new Map<ContentId, Int32Array>();
  private readonly runIds = new Map<string, number>();
  private readonly runs: string[] = [];
  // Map keeps insertion order: the first key is the least recently joined.
  private readonly joined = new Map<ContentId, string>();

  idOf(content: FileContent): ContentId {
    if (content === null) return ABSENT_ID;
    if (content === UNKNOWN_CONTENT) return UNKNOWN_ID;
    const id = createHash('sha1').update(content, 'utf8').digest('hex');
    if (!this.texts.has(id)) this.texts.set(id, this.runIdsOf(content));
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
    const parts = new Array<string>(ids.length);
    for (let k = 0; k < ids.length; k++) parts[k] = this.runs[ids[k]!]!;
    const text = parts.join('');
    this.joined.set(id, text);
    if (this.joined.size > JOINED_KEPT) this.joined.delete(this.joined.keys().next().value as ContentId);
    return text;
  }

  /** How many distinct texts are kept. */
  get size(): number {
    return this.texts.size;
  }

  /** How many distinct runs of lines the texts share (a figure for tests and benches). */
  get runCount(): number {
    return this.runs.length;
  }

  private runIdsOf(text: string): Int32Array {
    const ids: number[] = [];
    let start = 0;
    let line = 0;
    while (start < text.length) {
      const newline = text.indexOf('\n', line);
      const end = newline === -1 ? text.length : newline + 1;
      if (newline !== -1 && ((end - line) * 31 + text.charCodeAt(line) * 7 + text.charCodeAt((line + end) >> 1) * 3 + text.charCodeAt(end - 2)) % RUN_LINES !== 0 && end - start < RUN_MAX) {
        line = end;
        continue;
      }
      const run = text.slice(start, end);
      let runId = this.runIds.get(run);
      if (runId === undefined) {
        runId = this.runs.length;
        // A slice holds the whole text it was cut from (V8, 13 units and up): a copy keeps the run alone. Through
        // JSON, which keeps a lone surrogate as it is (UTF-8 would replace it).
        const own = run.length < 13 ? run : (JSON.parse(JSON.stringify(run)) as string);
        this.runs.push(own);
        this.runIds.set(own, runId);
      }
      ids.push(runId);
      start = line = end;
    }
    return Int32Array.from(ids);
  }
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
  /** The effect's hunks where the replay reads them, else none (see the constructor). */
  readonly patch: readonly PatchHunk[];
  readonly replacements: readonly StringReplacement[];
  readonly contextPatch?: readonly ContextHunk[];
  readonly from?: string;
  readonly beforeId: ContentId;
  readonly afterId: ContentId;

  constructor(
    effect: FileEffect,
    private readonly store: ContentStore,
  ) {
    this.tool = effect.tool;
    this.toolUseId = effect.toolUseId;
    this.path = effect.path;
    this.source = effect.source;
    this.replacements = effect.replacements;
    if (effect.contextPatch !== undefined) this.contextPatch = effect.contextPatch;
    if (effect.from !== undefined) this.from = effect.from;
    this.beforeId = store.idOf(effect.before);
    this.afterId = store.idOf(effect.after);
    // The replay reads the hunks only to derive an after-state the result does not tell, and then only when there
    // are no replacements (applyFileEdit): elsewhere they were 60 MB of display text on a 1 GB session.
    this.patch = this.afterId === UNKNOWN_ID && effect.replacements.length === 0 ? effect.patch : [];
  }

  get before(): FileContent {
    return this.store.contentOf(this.beforeId);
  }

  get after(): FileContent {
    return this.store.contentOf(this.afterId);
  }

  /** The effect as the reader gave it (a plain object, with its texts), but for hunks the replay does not read. */
  whole(): FileEffect {
    const { tool, toolUseId, path, before, after, source, patch, replacements, contextPatch, from } = this;
    return { tool, toolUseId, path, before, after, source, patch, replacements, ...(contextPatch === undefined ? {} : { contextPatch }), ...(from === undefined ? {} : { from }) };
  }
}
