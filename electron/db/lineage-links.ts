/**
 * The write side of session lineage (migration 014, issue 13): which session goes on from which, as the
 * lines that say so land — a fork's copied lines (`forkedFrom`), a `continued-in` record, lines of the
 * session before a cleared context at the top of a file. A file is its own session (fileSessionIdentity):
 * those lines link it to the other session and never merge the two.
 */
import type { ImportProblem } from '../../shared/model';
import type { ParsedNode } from '../importers/transcript';
import type { WritableDB } from './database';

export type LineageKind = 'fork' | 'continues' | 'follows';

/** Claude Code names a session file after its session, a UUID. */
const SESSION_FILE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function prepareLineageStatements(db: WritableDB) {
  return {
    link: db.prepare<[string, LineageKind, string, string | null]>(
      `INSERT INTO session_lineage (later_id, kind, earlier_id, node_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (later_id, kind, earlier_id) DO UPDATE SET node_id = coalesce(excluded.node_id, node_id)`,
    ),
    alias: db.prepare<[string], { session_id: string }>('SELECT session_id FROM session_aliases WHERE alias = ?'),
    insertAlias: db.prepare<[string, string]>('INSERT OR IGNORE INTO session_aliases (alias, session_id) VALUES (?, ?)'),
    insertSession: db.prepare<[string, string, string]>('INSERT OR IGNORE INTO sessions (id, source, title) VALUES (?, ?, ?)'),
    unchecked: db.prepare<[], { later_id: string; kind: LineageKind; earlier_id: string; has_later: number; has_earlier: number; path: string | null }>(
      `SELECT later_id, kind, earlier_id,
         EXISTS (SELECT 1 FROM files f WHERE f.session_id = later) AS has_later,
         EXISTS (SELECT 1 FROM files f WHERE f.session_id = earlier) AS has_earlier,
         (SELECT path FROM files f WHERE f.session_id IN (later, earlier) ORDER BY f.role != 'main', f.id LIMIT 1) AS path
       FROM (SELECT l.later_id, l.kind, l.earlier_id,
               coalesce((SELECT session_id FROM session_aliases WHERE alias = l.later_id), l.later_id) AS later,
               coalesce((SELECT session_id FROM session_aliases WHERE alias = l.earlier_id), l.earlier_id) AS earlier
             FROM session_lineage l WHERE l.reported = 0)`,
    ),
    checked: db.prepare('UPDATE session_lineage SET reported = 1 WHERE reported = 0'),
    rename: db.prepare<[string, string]>('INSERT OR IGNORE INTO node_renames (copy_id, node_id) VALUES (?, ?)'),
    original: db.prepare<[string], { node_id: string }>('SELECT node_id FROM node_renames WHERE copy_id = ?'),
  };
}
export type LineageStatements = ReturnType<typeof prepareLineageStatements>;

/** `later` goes on from `earlier` (at `nodeId`, a fork's fork point: the last copied line seen so far). */
export function linkLineage(s: LineageStatements, later: string, kind: LineageKind, earlier: string, nodeId: string | null): void {
  if (later !== earlier) s.link.run(later, kind, earlier, nodeId);
}

/**
 * A session's first node naming the session it goes on from in another file (Codex `forked_from_id`, a resume
 * written into a new file): linked even when no copied line was matched to that session's (its rollout is not on
 * the disk), so the header still says so. A subagent is linked through its spawning call instead.
 */
export function linkDeclaredSession(s: LineageStatements, sessionId: string, node: ParsedNode): void {
  const declared = node.linkedSession;
  if (declared === undefined || declared.kind === 'subagent') return;
  linkLineage(s, sessionId, declared.kind === 'fork-of' ? 'fork' : 'continues', declared.sessionSourceId, null);
}

/**
 * The session a fork's copied lines belong to: their parent's (whatever joined its id), created empty when
 * the parent's file has not been imported yet (its file joins it then, by these shared nodes).
 */
export function forkParentSession(s: LineageStatements, parentSessionId: string, format: string): string {
  const known = s.alias.get(parentSessionId)?.session_id;
  if (known !== undefined) return known;
  s.insertSession.run(parentSessionId, format, parentSessionId);
  s.insertAlias.run(parentSessionId, parentSessionId);
  return parentSessionId;
}

/**
 * Which session a session file is: the one it is named after when that is a session id (or some line
 * carries it), else the id most of its lines carry, else its name. Lines naming another id are not its own.
 */
export function fileSessionIdentity(fileName: string | null, lineSessions: readonly (string | null)[]): string | null {
  if (fileName !== null && (SESSION_FILE_NAME.test(fileName) || lineSessions.includes(fileName))) return fileName;
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const id of lineSessions) {
    if (id === null) continue;
    const count = (counts.get(id) ?? 0) + 1;
    counts.set(id, count);
    if (best === null || count > (counts.get(best) ?? 0)) best = id;
  }
  return best ?? fileName;
}

/** Each link whose other session is not in the store is reported once, at the import that wrote it (never an error). */
export function reportMissingLineage(s: LineageStatements): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const row of s.unchecked.all()) {
    if (row.has_later && row.has_earlier) continue;
    const missing = row.has_earlier ? row.later_id : row.earlier_id;
    const what =
      row.kind === 'fork' ? `session ${row.later_id} is a fork of session ${row.earlier_id}`
      : row.kind === 'continues' ? `session ${row.earlier_id} continues in session ${row.later_id}`
      : `session ${row.later_id} follows session ${row.earlier_id}`;
    problems.push({ file: row.path ?? '', line: 0, reason: `${what}, whose transcript is not imported (session ${missing})` });
  }
  s.checked.run();
  return problems;
}

/**
 * A fork's copy under a new uuid is stored as its original (migration 020 keeps copy → original), and a line
 * naming a copy as its parent that the parser could not map (the copies were read by an earlier import: a
 * fork appended in pieces) is given the original. Only parents not stored are looked up, so a plain import
 * adds no query per line.
 */
export function resolveRenamedCopies(s: LineageStatements, node: ParsedNode, isStored: (id: string) => boolean): ParsedNode {
  const copy = node.forkedFrom?.copyUuid;
  if (copy !== undefined) s.rename.run(copy, node.sourceId);
  const parent = originalOf(s, node.parentSourceId, isStored);
  const logical = originalOf(s, node.logicalParentSourceId, isStored);
  return parent === node.parentSourceId && logical === node.logicalParentSourceId ? node : { ...node, parentSourceId: parent, logicalParentSourceId: logical };
}

function originalOf(s: LineageStatements, id: string | null, isStored: (id: string) => boolean): string | null {
  if (id === null || isStored(id)) return id;
  return s.original.get(id)?.node_id ?? id;
}
