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
  /**
   * A fork, a continuation or a follower listed under its origin (issue 13): how deep each session sits (0 or
   * absent: at the top), and how many sessions a folded origin hides.
   */
  readonly depth?: ReadonlyMap<SessionId, number>;
  readonly hidden?: ReadonlyMap<SessionId, number>;
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
  folded: (id: SessionId) => boolean = () => false,
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
    return { key, name: projectName(key), collapsed: collapsed(key), ...underOrigins(list, folded) };
  });
  return groups.sort((a, b) => compare(a.sessions[0]!, b.sessions[0]!) || a.key.localeCompare(b.key));
}

/** The session a session goes on from (a fork's parent, the session it continues or follows), if it has one. */
export const originOf = (session: SessionSummary): SessionId | null => session.links?.find((link) => link.direction === 'earlier')?.sessionId ?? null;

/**
 * `sorted` with each linked session right under its origin (when the origin is in the same group), origins in
 * their sorted order and their descendants in theirs; a folded origin's descendants left out and counted.
 */
function underOrigins(sorted: SessionSummary[], folded: (id: SessionId) => boolean): Pick<SessionGroup, 'sessions' | 'depth' | 'hidden'> {
  if (!sorted.some((session) => session.links !== undefined)) return { sessions: sorted };
  const inGroup = new Set(sorted.map((session) => session.id));
  const children = new Map<SessionId, SessionSummary[]>();
  const roots: SessionSummary[] = [];
  for (const session of sorted) {
    const origin = originOf(session);
    if (origin === null || origin === session.id || !inGroup.has(origin)) roots.push(session);
    else children.set(origin, [...(children.get(origin) ?? []), session]);
  }
  const out: SessionSummary[] = [];
  const depth = new Map<SessionId, number>();
  const hidden = new Map<SessionId, number>();
  const placed = new Set<SessionId>();
  const count = (id: SessionId, seen: Set<SessionId>): number => {
    let n = 0;
    for (const child of children.get(id) ?? []) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      n += 1 + count(child.id, seen);
    }
    return n;
  };
  const visit = (session: SessionSummary, level: number): void => {
    if (placed.has(session.id)) return;
    placed.add(session.id);
    out.push(session);
    if (level > 0) depth.set(session.id, level);
    if (folded(session.id) && children.has(session.id)) {
      hidden.set(session.id, count(session.id, new Set(placed)));
      return;
    }
    for (const child of children.get(session.id) ?? []) visit(child, level + 1);
  };
  for (const root of roots) visit(root, 0);
  // A cycle of links has no root: its sessions (none reachable from a root) are listed at the top, as they were.
  const reachable = new Set<SessionId>();
  const reach = (id: SessionId): void => {
    if (reachable.has(id)) return;
    reachable.add(id);
    for (const child of children.get(id) ?? []) reach(child.id);
  };
  for (const root of roots) reach(root.id);
  for (const session of sorted) if (!reachable.has(session.id) && !placed.has(session.id)) visit(session, 0);
  return { sessions: out, depth, hidden };
}

/** "2 forks, continued in 1, followed by 1": what goes on from a session, for its row. */
export function lineageSummary(session: SessionSummary): string | null {
  const later = session.links?.filter((link) => link.direction === 'later') ?? [];
  if (later.length === 0) return null;
  const forks = later.filter((link) => link.kind === 'fork').length;
  const continued = later.filter((link) => link.kind === 'continues').length;
  const followers = later.filter((link) => link.kind === 'follows').length;
  const parts = [forks > 0 ? `${forks} ${forks === 1 ? 'fork' : 'forks'}` : '', continued > 0 ? `continued in ${continued}` : '', followers > 0 ? `followed by ${followers}` : ''];
  return parts.filter(Boolean).join(', ');
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
