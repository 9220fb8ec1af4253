/**
 * After an import, the sessions that changed are finished. Their nodes were linked as they landed
 * (link-state.ts: parents, extra edges, branch points, times, counts); what is left needs the whole batch:
 * a parent that arrived after its child may have closed a cycle, broken here at its earliest node, and the
 * summary row's title, project and file count are recomputed. Nothing here reads a session's rows: cycle walks
 * start at the nodes whose parent came after them, titles read a bounded prefix or the summaries that arrived.
 */
import { prepareSessionGraphWrites, storeSessionGraphs } from './session-graph-store';
import type { ImportProblem, SessionId } from '../../shared/model';
import type { WritableDB } from './database';
import { prepareLinkStateStatements, promptTime, removePrompt } from './link-state';
import { isTitleWorthy, prepareTitleStatements, transcriptTitle } from './session-title';

/** First lines looked at for a title: enough to pass a run of caveats and command echoes, bounded. */
const TITLE_CANDIDATES = 40;

interface WalkRow {
  readonly seq: number;
  readonly id: string;
  readonly session_id: string;
  readonly parent_id: string | null;
  readonly parent_source_id: string | null;
  readonly file_id: number;
  readonly line: number;
  readonly kind: string;
  readonly timestamp: string | null;
}

const WALK_COLUMNS = 'seq, id, session_id, parent_id, parent_source_id, file_id, line, kind, timestamp';

export function prepareLinkStatements(db: WritableDB) {
  return {
    graphs: prepareSessionGraphWrites(db),
    state: prepareLinkStateStatements(db),
    dirtySessions: db.prepare<[], { id: string }>('SELECT id FROM sessions WHERE dirty = 1'),
    cycleChecks: db.prepare<[], { node_seq: number; forward_min_seq: number | null }>(
      `SELECT c.node_seq, s.forward_min_seq FROM link_cycle_checks c
       JOIN nodes n ON n.seq = c.node_seq JOIN sessions s ON s.id = n.session_id ORDER BY c.node_seq`,
    ),
    clearCycleChecks: db.prepare('DELETE FROM link_cycle_checks'),
    nodeBySeq: db.prepare<[number], WalkRow>(`SELECT ${WALK_COLUMNS} FROM nodes WHERE seq = ?`),
    nodeById: db.prepare<[string], WalkRow>(`SELECT ${WALK_COLUMNS} FROM nodes WHERE id = ?`),
    filePath: db.prepare<[number], { path: string }>('SELECT path FROM files WHERE id = ?'),
    sessionFiles: db.prepare<[{ session: string }], { files: number; project: string | null }>(
      `SELECT count(*) AS files,
              (SELECT first_cwd FROM files WHERE session_id = @session AND first_cwd IS NOT NULL ORDER BY id LIMIT 1) AS project
       FROM files WHERE session_id = @session`,
    ),
    sessionTitleState: db.prepare<[string], { summary_title: string | null; summary_stale: number }>(
      'SELECT summary_title, summary_stale FROM sessions WHERE id = ?',
    ),
    // The transcript's own title: a summary record pointing at one of the session's nodes, the newest such
    // node (the last record written for it). Driven from the few summary records, never the session's nodes.
    summaryTitle: db.prepare<[string], { summary: string }>(
      `SELECT r.summary FROM records r CROSS JOIN nodes n ON n.id = r.ref_source_id
       WHERE r.type = 'summary' AND r.ref_by_key = 1 AND r.summary IS NOT NULL AND r.summary != '' AND n.session_id = ?
       ORDER BY n.file_id DESC, n.line DESC, r.id DESC LIMIT 1`,
    ),
    // The first few, since the first "user" lines are often caveats or command echoes (isTitleWorthy).
    firstPrompts: db.prepare<[string], { label: string }>(
      `SELECT label FROM nodes WHERE session_id = ? AND kind = 'user' AND label != '' ORDER BY file_id, line LIMIT ${TITLE_CANDIDATES}`,
    ),
    // Sessions without a typed prompt (an away summary, a resumed tail) are titled by their first readable
    // step: an answer, else a recap, never a compaction summary (and isTitleWorthy drops notices). Answers come
    // first because an informational notice's label is its text, which isTitleWorthy cannot tell from a recap.
    // One query per kind, each in the (session_id, file_id, line) order of nodes_by_session and stopping at its
    // limit: one ordered by kind first sorted every answer and recap of the session, read from the table
    // since migration 042, on every link of an import.
    firstAnswers: db.prepare<[string], { label: string }>(
      `SELECT label FROM nodes WHERE session_id = ? AND kind = 'assistant' AND label != '' ORDER BY file_id, line LIMIT ${TITLE_CANDIDATES}`,
    ),
    firstRecaps: db.prepare<[string, number], { label: string }>(
      `SELECT label FROM nodes WHERE session_id = ? AND kind = 'system' AND label != '' ORDER BY file_id, line LIMIT ?`,
    ),
    titles: prepareTitleStatements(db),
    // For the list's orphan flag (migration 017): once a line off the sidechain is stored it stays so.
    markMainLine: db.prepare<[string, string]>(
      'UPDATE sessions SET main_line = 1 WHERE id = ? AND main_line = 0 AND EXISTS (SELECT 1 FROM nodes WHERE session_id = ? AND sidechain = 0)',
    ),
    updateSession: db.prepare<[string, string | null, number, string | null, string]>(
      `UPDATE sessions SET title = ?, project = ?, file_count = ?, summary_title = ?, summary_stale = 0, dirty = 0
       WHERE id = ?`,
    ),
  };
}
export type LinkStatements = ReturnType<typeof prepareLinkStatements>;

/** Finishes every session that received nodes since the last run; returns them and the cycles broken. Run inside a transaction. */
export function linkChangedSessions(s: LinkStatements): { sessionIds: SessionId[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  for (const check of s.cycleChecks.all()) {
    const problem = breakCycleThrough(s, check.node_seq, check.forward_min_seq ?? check.node_seq);
    if (problem !== null) problems.push(problem);
  }
  s.clearCycleChecks.run();
  const sessionIds = s.dirtySessions.all().map((row) => row.id);
  for (const sessionId of sessionIds) finishSession(s, sessionId);
  // In the same transaction: a session is listed with its stored graph covering what was just linked.
  storeSessionGraphs(s.graphs, sessionIds);
  return { sessionIds, problems };
}

function finishSession(s: LinkStatements, sessionId: SessionId): void {
  const state = s.sessionTitleState.get(sessionId);
  const summaryTitle = state?.summary_stale
    ? transcriptTitle(s.titles, sessionId, () => s.summaryTitle.get(sessionId)?.summary ?? null)
    : (state?.summary_title ?? null);
  const title =
    summaryTitle ??
    s.firstPrompts.all(sessionId).find((row) => isTitleWorthy(row.label))?.label ??
    firstReadable(s, sessionId).find((row) => isTitleWorthy(row.label))?.label ??
    sessionId;
  const files = s.sessionFiles.get({ session: sessionId });
  s.updateSession.run(title, files?.project ?? null, files?.files ?? 0, summaryTitle, sessionId);
  s.markMainLine.run(sessionId, sessionId);
}

/** The first TITLE_CANDIDATES answers, then recaps, in transcript order (the title's last resort). */
function firstReadable(s: LinkStatements, sessionId: SessionId): { label: string }[] {
  const answers = s.firstAnswers.all(sessionId);
  return answers.length < TITLE_CANDIDATES ? [...answers, ...s.firstRecaps.all(sessionId, TITLE_CANDIDATES - answers.length)] : answers;
}

/**
 * Walks up from a node whose parent arrived after it; if the walk comes back, the cycle is broken at its
 * earliest node in transcript order (made a root). Below `floor` (the session's first such node) every
 * parent is earlier than its child, so the walk cannot come back and stops there.
 */
function breakCycleThrough(s: LinkStatements, start: number, floor: number): ImportProblem | null {
  const first = s.nodeBySeq.get(start);
  if (!first) return null;
  const cycle: WalkRow[] = [first];
  const visited = new Set<number>([first.seq]);
  for (let current = first; ; ) {
    if (current.parent_id === null) return null;
    const next = current.parent_id === current.id ? current : s.nodeById.get(current.parent_id);
    if (!next || next.session_id !== first.session_id) return null;
    if (next.seq === first.seq) break;
    if (visited.has(next.seq) || next.seq < floor) return null;
    visited.add(next.seq);
    cycle.push(next);
    current = next;
  }
  let index = 0;
  cycle.forEach((row, at) => {
    const best = cycle[index]!;
    if (row.file_id < best.file_id || (row.file_id === best.file_id && row.line < best.line)) index = at;
  });
  const earliest = cycle[index]!;
  s.state.setParent.run(null, earliest.seq);
  if (earliest.kind === 'user') {
    const parent = cycle[(index + 1) % cycle.length]!;
    removePrompt(s.state, parent.seq, promptTime(earliest.timestamp, earliest.line), earliest.session_id);
  }
  s.state.markDirty.run(earliest.session_id);
  return {
    file: s.filePath.get(earliest.file_id)?.path ?? '',
    line: earliest.line,
    reason: `parent cycle: ${earliest.id} made a root (its parentUuid ${earliest.parent_source_id} leads back to itself)`,
  };
}
