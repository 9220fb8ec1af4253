/**
 * `sessions.formatReport`: `arbor doctor` for one session, from the lines the store kept (not the files,
 * which may have moved or grown): what Arbor does not model yet, counted by the importer's own registry.
 *
 * The import counts each file's lines as it stores them (db/format-counts.ts), so the report merges a few kept
 * tallies. A file stored before migration 038, or one read again from its start, has none: its stored lines are
 * counted here, a slice at a time with a turn of the event loop between slices (other requests are answered, the
 * signal is checked), and the tally is kept, so it is counted once.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { FormatReport } from '../../shared/format-report';
import type { FormatCountPart } from '../db/format-counts';
import { COUNT_START } from '../db/format-counts';
import type { StoredLine } from '../db/session-lines';
import type { SessionStore } from '../db/session-store';
import { emptyFileTally, lineVerdict, reportOfTallies, tallyLine, type FileTally, type LineVerdict } from '../importers/format-doctor-intake';
import { importerFor } from '../importers/registry';
import { RAW_LIMIT } from '../importers/transcript';

/** Stored lines read per slice when a file's lines are counted here. */
const SLICE_LINES = 1024;

export async function sessionFormatReport(store: SessionStore, sessionId: string, signal?: AbortSignal): Promise<FormatReport> {
  const session = store.getSession(sessionId);
  if (session === null) throw new ArborError('NOT_FOUND', `No session ${sessionId}`);
  // Each format's own doctor: Claude Code's, run on a Codex rollout, called every Codex record type "not
  // understood" (5 on a plain rollout).
  const verdictOf = importerFor(session.source)?.formatLineVerdict ?? null;
  if (verdictOf === null) return { files: 0, lines: 0, bytes: 0, unmodelled: [], unreadable: { count: 0, examples: [] }, tooLarge: 0 };
  const files: { path: string; tally: FileTally }[] = [];
  for (const part of store.formatCountParts(sessionId)) {
    const tally = part.needsCount ? await countStoredLines(store, sessionId, part, verdictOf, signal) : (part.tally ?? emptyFileTally());
    files.push({ path: part.path, tally });
  }
  return reportOfTallies(files);
}

/** The session's stored lines of one file, counted as the doctor reads them, in slices; the tally is kept. */
async function countStoredLines(store: SessionStore, sessionId: string, part: FormatCountPart, verdictOf: (value: unknown) => LineVerdict, signal: AbortSignal | undefined): Promise<FileTally> {
  const take = (tally: FileTally) => (line: StoredLine): void =>
    tallyLine(tally, line.line, line.rawBytes, lineVerdict(line.raw, line.rawBytes > RAW_LIMIT || line.raw.length < line.rawBytes, verdictOf));
  const tally = emptyFileTally();
  let cursor = COUNT_START;
  for (;;) {
    throwIfAborted(signal);
    const slice = store.readFormatLines(sessionId, part, cursor, SLICE_LINES);
    slice.lines.forEach(take(tally));
    cursor = slice.cursor;
    if (slice.done) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throwIfAborted(signal);
  const kept = store.finishFormatCount(sessionId, part, cursor, (tail) => {
    const whole = structuredClone(tally);
    tail.forEach(take(whole));
    return whole;
  });
  if (kept !== null) return kept;
  // A store that cannot be written: the lines stored since the last slice are read here, and nothing is kept.
  for (;;) {
    const slice = store.readFormatLines(sessionId, part, cursor, SLICE_LINES);
    slice.lines.forEach(take(tally));
    cursor = slice.cursor;
    if (slice.done) return tally;
  }
}
