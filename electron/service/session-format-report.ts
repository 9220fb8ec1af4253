/**
 * `sessions.formatReport`: `arbor doctor` for one session, from the lines the store kept (not the files,
 * which may have moved or grown): what Arbor does not model yet, counted by the importer's own registry.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { FormatReport } from '../../shared/format-report';
import type { SessionStore } from '../db/session-store';
import { importerFor } from '../importers/registry';
import { RAW_LIMIT } from '../importers/transcript';

/** Lines between cancellation checks (the store is read synchronously, row by row). */
const CHECK_EVERY = 4096;

export function sessionFormatReport(store: SessionStore, sessionId: string, signal?: AbortSignal): FormatReport {
  const session = store.getSession(sessionId);
  if (session === null) throw new ArborError('NOT_FOUND', `No session ${sessionId}`);
  // Each format's own doctor: Claude Code's, run on a Codex rollout, called every Codex record type "not
  // understood" (5 on a plain rollout).
  const doctor = importerFor(session.source)?.formatDoctor() ?? null;
  if (doctor === null) return { files: 0, lines: 0, bytes: 0, unmodelled: [], unreadable: { count: 0, examples: [] }, tooLarge: 0 };
  let count = 0;
  store.forEachSessionLine(sessionId, (line) => {
    if (++count % CHECK_EVERY === 0) throwIfAborted(signal);
    doctor.line(line.raw, { file: line.file, line: line.line }, line.rawBytes, line.rawBytes > RAW_LIMIT || line.raw.length < line.rawBytes);
  });
  return doctor.report();
}
