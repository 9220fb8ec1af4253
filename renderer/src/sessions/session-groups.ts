/**
 * The sessions list as a project browser: sessions grouped by project, groups and sessions sorted by the
 * chosen key, collapsed groups folded to their header. Pure: the list component virtualizes `rows`.
 */
import type { SessionId, SessionSummary } from '../../../shared/model';

export type SessionSort = 'activity' | 'size' | 'branches';
export const SESSION_SORTS: readonly SessionSort[] = ['activity', 'size', 'branches'];

export interface SessionGroup {
  /** The project's working directory (or the folder of its transcripts): the group's identity. */
  readonly key: string;
  /** Its folder name, as the header shows it. */
  readonly name: string;
  readonly sessions: readonly SessionSummary[];
  readonly collapsed: boolean;
}

export type ListRow =
  | { readonly type: 'group'; readonly group: SessionGroup; readonly groupIndex: number }
  | { readonly type: 'session'; readonly session: SessionSummary; readonly group: SessionGroup; readonly groupIndex: number };

/** The keyboard cursor: a group's header or a session. */
export type ListCursor = { readonly type: 'group'; readonly key: string } | { readonly type: 'session'; readonly id: SessionId };

export const projectKeyOf = (session: SessionSummary): string => session.projectKey ?? session.project ?? 'unknown project';

/** "/home/a/src/arbor" → "arbor"; a Claude Code project folder's name ("-home-a-src-arbor") as it is. */
export function projectName(key: string): string {
  const parts = key.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? key;
}

export const activityOf = (session: SessionSummary): string => session.lastActivityAt ?? session.updatedAt ?? session.startedAt ?? '';

/** Bytes when the store has them for every session, else nodes: sizes compared in one unit only. */
export const sizeUnitOf = (sessions: readonly SessionSummary[]): 'bytes' | 'nodes' =>
  sessions.every((session) => session.bytes !== undefined) ? 'bytes' : 'nodes';

function compareBy(sort: SessionSort, unit: 'bytes' | 'nodes'): (a: SessionSummary, b: SessionSummary) => number {
  const byActivity = (a: SessionSummary, b: SessionSummary): number => {
    const ka = activityOf(a);
    const kb = activityOf(b);
    return ka === kb ? a.id.localeCompare(b.id) : ka < kb ? 1 : -1;
  };
  switch (sort) {
    case 'activity':
      return byActivity;
    case 'size': {
      const size = (s: SessionSummary): number => (unit === 'bytes' ? (s.bytes ?? 0) : s.nodeCount);
      return (a, b) => size(b) - size(a) || byActivity(a, b);
    }
    case 'branches':
      return (a, b) => b.branchCount - a.branchCount || byActivity(a, b);
  }
}

/**
 * Groups by project; each group sorted, and groups ordered by their first session under the same key (the
 * newest, largest or most-branched). `collapsed` says which group keys show as a header only.
 */
export function groupSessions(
  sessions: readonly SessionSummary[],
  sort: SessionSort,
  collapsed: (key: string) => boolean,
): SessionGroup[] {
  const compare = compareBy(sort, sizeUnitOf(sessions));
  const byKey = new Map<string, SessionSummary[]>();
  for (const session of sessions) {
    const key = projectKeyOf(session);
    const list = byKey.get(key);
    if (list) list.push(session);
    else byKey.set(key, [session]);
  }
  const groups = [...byKey].map(([key, list]) => {
    list.sort(compare);
    return { key, name: projectName(key), sessions: list, collapsed: collapsed(key) };
  });
  return groups.sort((a, b) => compare(a.sessions[0]!, b.sessions[0]!) || a.key.localeCompare(b.key));
}

/** One row per group header and per session of an expanded group, in screen order. */
export function listRows(groups: readonly SessionGroup[]): ListRow[] {
  const rows: ListRow[] = [];
  groups.forEach((group, groupIndex) => {
    rows.push({ type: 'group', group, groupIndex });
    if (!group.collapsed) for (const session of group.sessions) rows.push({ type: 'session', session, group, groupIndex });
  });
  return rows;
}

export function rowIndexOf(rows: readonly ListRow[], cursor: ListCursor | null): number {
  if (cursor === null) return -1;
  return rows.findIndex((row) =>
    cursor.type === 'group' ? row.type === 'group' && row.group.key === cursor.key : row.type === 'session' && row.session.id === cursor.id,
  );
}

export const cursorOf = (row: ListRow): ListCursor =>
  row.type === 'group' ? { type: 'group', key: row.group.key } : { type: 'session', id: row.session.id };

/**
 * Where ↑/↓ stop: the sessions of expanded groups, and the headers of collapsed ones (so a folded project can be
 * reached and opened with →). An expanded group's header is passed over, though the cursor may sit on it.
 */
const isStop = (row: ListRow): boolean => row.type === 'session' || row.group.collapsed;

/** The next stop after (delta 1) or before (delta -1) `from`; `from` itself when there is none. */
export function stepCursor(rows: readonly ListRow[], from: number, delta: 1 | -1): number {
  for (let index = from + delta; index >= 0 && index < rows.length; index += delta) {
    if (isStop(rows[index]!)) return index;
  }
  return from;
}

/** -1 when there is no stop. */
export function firstStop(rows: readonly ListRow[]): number {
  return stepCursor(rows, -1, 1);
}

export function lastStop(rows: readonly ListRow[]): number {
  const index = stepCursor(rows, rows.length, -1);
  return index === rows.length ? -1 : index;
}
