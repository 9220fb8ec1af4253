/**
 * `sessions.formatReport`: `arbor doctor` for one session, from the lines the store kept (not the files,
 * which may have moved or grown): what Arbor does not model yet, counted by the importer's own registry.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import type { FormatReport } from '../../shared/format-report';
import type { SessionStore } from '../db/session-store';
import { FormatDoctor } from '../importers/claude-code/format-doctor';
import { RAW_LIMIT } from '../importers/transcript';

/** Lines between cancellation checks (the store is read synchronously, row by row). */
const CHECK_EVERY = 4096;

export function sessionFormatReport(store: SessionStore, sessionId: string, signal?: AbortSignal): FormatReport {
  const session = store.getSession(sessionId);
  if (session === null) throw new ArborError('NOT_FOUND', `No session ${sessionId}`);
  const doctor = new FormatDoctor();
  // The doctor knows Claude Code's records only: run on a Codex rollout it called every Codex record type
  // "not understood" (5 on a plain rollout). Other formats get their own doctor with their importer.
  if (session.source !== 'claude-code') return doctor.report();
  let count = 0;
  store.forEachSessionLine(sessionId, (line) => {
    if (++count % CHECK_EVERY === 0) throwIfAborted(signal);
    doctor.line(line.raw, { file: line.file, line: line.line }, line.rawBytes, line.rawBytes > RAW_LIMIT || line.raw.length < line.rawBytes);
  });
  return doctor.report();
}
