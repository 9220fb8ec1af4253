import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useStore } from 'zustand';
import type { SessionId } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { formatCount, plural } from '../app/format';
import { filterSessions } from '../state/sessions-slice';
import { openDeleteSession } from '../forget/forget-store';
import { ImportFolderButton } from './ImportFolder';
import {
  cursorOf,
  firstStop,
  groupSessions,
  lastStop,
  listRows,
  type ListCursor,
  type ListRow,
  projectKeyOf,
  rowIndexOf,
  stepCursor,
} from './session-groups';
import { sessionListPrefs, type SessionListPrefsStore } from './session-list-prefs';
import { GroupHeader, HEADER_HEIGHT, ROW_HEIGHT, SessionRow } from './SessionRows';
import { SortControl } from './SortControl';
import './session-list.css';

/**
 * Before layout (first paint, or a DOM without layout such as tests) the pane measures 0 high and would
 * show no rows; assume the window's height until a real size arrives.
 */
function observeRectOrWindow(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight || 800 }));
}

const rowHeight = (row: ListRow | undefined): number => (row?.type === 'group' ? HEADER_HEIGHT : ROW_HEIGHT);
const rowKey = (row: ListRow | undefined, index: number): string =>
  row === undefined ? String(index) : row.type === 'group' ? `g:${row.group.key}` : `s:${row.session.id}`;

/**
 * The left pane: every imported session grouped by project, sorted by last activity, size or branches,
 * filterable, virtualized, keyboard-driven (↑/↓ move, ←/→ fold and unfold a project, Enter opens, Delete deletes).
 */
export function SessionList({ prefs = sessionListPrefs }: { readonly prefs?: SessionListPrefsStore }) {
  const sessions = useAppState((s) => s.sessions);
  const status = useAppState((s) => s.sessionsStatus);
  const filter = useAppState((s) => s.sessionFilter);
  const setFilter = useAppState((s) => s.setSessionFilter);
  const selectedSessionId = useAppState((s) => s.selectedSessionId);
  const openSession = useAppState((s) => s.openSession);
  const sort = useStore(prefs, (s) => s.sort);
  const collapsed = useStore(prefs, (s) => s.collapsed);
  const visible = useMemo(() => filterSessions(sessions, filter), [sessions, filter]);

  // While filtering, every project with a match shows unfolded; folding then lasts until the filter changes,
  // and the folds the user keeps (prefs) come back when the filter is cleared.
  const [filterFolds, setFilterFolds] = useState<{ readonly filter: string; readonly keys: ReadonlySet<string> }>({ filter: '', keys: new Set() });
  const folds = filter === '' ? collapsed : filterFolds.filter === filter ? filterFolds.keys : EMPTY;
  const setFolded = useCallback(
    (key: string, folded: boolean) => {
      if (filter === '') {
        prefs.getState().setCollapsed(key, folded);
        return;
      }
      setFilterFolds((current) => {
        const keys = new Set(current.filter === filter ? current.keys : EMPTY);
        if (folded) keys.add(key);
        else keys.delete(key);
        return { filter, keys };
      });
    },
    [filter, prefs],
  );

  // Origins whose forks, continuations and followers are folded away (for this window's life).
  const [foldedLines, setFoldedLines] = useState<ReadonlySet<SessionId>>(EMPTY);
  const toggleLine = useCallback((id: SessionId) => {
    setFoldedLines((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const groups = useMemo(() => groupSessions(visible, sort, (key) => folds.has(key), (id) => foldedLines.has(id)), [visible, sort, folds, foldedLines]);
  const total =
    (filter ? `${formatCount(visible.length)} of ${formatCount(sessions.length)}` : plural(sessions.length, 'session')) +
    (groups.length > 1 ? ` in ${plural(groups.length, 'project')}` : '');
  const rows = useMemo(() => listRows(groups), [groups]);
  const offsets = useMemo(() => {
    const tops = new Array<number>(rows.length + 1);
    tops[0] = 0;
    for (let i = 0; i < rows.length; i++) tops[i + 1] = tops[i]! + rowHeight(rows[i]);
    return tops;
  }, [rows]);
  const headerIndexes = useMemo(() => rows.flatMap((row, index) => (row.type === 'group' ? [index] : [])), [rows]);

  // The keyboard cursor; starts at the open session so up/down continue from there. A session folded away
  // leaves the cursor on its project's header.
  const [cursor, setCursor] = useState<ListCursor | null>(null);
  const cursorIndex = useMemo(() => {
    const at = cursor ?? (selectedSessionId === null ? null : { type: 'session' as const, id: selectedSessionId });
    const index = rowIndexOf(rows, at);
    if (index >= 0 || at?.type !== 'session') return index;
    const session = visible.find((s) => s.id === at.id);
    return session ? rowIndexOf(rows, { type: 'group', key: projectKeyOf(session) }) : -1;
  }, [rows, cursor, selectedSessionId, visible]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => rowHeight(rows[index]),
    overscan: 8,
    getItemKey: (index) => rowKey(rows[index], index),
    observeElementRect: observeRectOrWindow,
  });

  // When a session is opened from elsewhere (search, demo), bring its row into view. Its project stays as the
  // user left it: the newest session opens on every start, and unfolding it then would forget the fold.
  useEffect(() => {
    if (selectedSessionId === null) return;
    const index = rowIndexOf(rows, { type: 'session', id: selectedSessionId });
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
    // Only a change of the open session should scroll, not every list refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedSessionId]);

  const open = useCallback(
    (id: SessionId) => {
      setCursor({ type: 'session', id });
      void openSession(id);
    },
    [openSession],
  );
  const toggle = useCallback(
    (key: string) => {
      setCursor({ type: 'group', key });
      setFolded(key, !folds.has(key));
    },
    [folds, setFolded],
  );

  const moveTo = (index: number) => {
    const row = rows[index];
    if (!row) return;
    setCursor(cursorOf(row));
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (rows.length === 0) return;
    const current = rows[cursorIndex];
    switch (event.key) {
      case 'ArrowDown':
        moveTo(cursorIndex < 0 ? firstStop(rows) : stepCursor(rows, cursorIndex, 1));
        break;
      case 'ArrowUp':
        moveTo(cursorIndex < 0 ? firstStop(rows) : stepCursor(rows, cursorIndex, -1));
        break;
      case 'Home':
        moveTo(firstStop(rows));
        break;
      case 'End':
        moveTo(lastStop(rows));
        break;
      case 'ArrowLeft':
        if (!current) return;
        setCursor({ type: 'group', key: current.group.key });
        setFolded(current.group.key, true);
        break;
      case 'ArrowRight':
        if (!current) return;
        if (current.type === 'group' && !current.group.collapsed) {
          moveTo(stepCursor(rows, cursorIndex, 1));
        } else {
          setCursor(cursorOf(current));
          setFolded(current.group.key, false);
        }
        break;
      case 'Delete':
        if (current?.type !== 'session') return;
        openDeleteSession(current.session.id);
        break;
      case 'Enter': {
        const target = current ?? rows[firstStop(rows)];
        if (target?.type === 'session') open(target.session.id);
        else if (target) toggle(target.group.key);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  // Rows are placed inside their project's role=group element, so each group only holds what is rendered of it.
  const items = virtualizer.getVirtualItems();
  const rendered: { groupIndex: number; indexes: number[] }[] = [];
  for (const item of items) {
    const row = rows[item.index];
    if (!row) continue;
    const last = rendered.at(-1);
    if (last?.groupIndex === row.groupIndex) last.indexes.push(item.index);
    else rendered.push({ groupIndex: row.groupIndex, indexes: [item.index] });
  }
  const activeRow = rows[cursorIndex];
  const activeId = activeRow === undefined ? undefined : activeRow.type === 'group' ? `session-group-${activeRow.groupIndex}` : `session-option-${cursorIndex}`;

  return (
    <section className="session-pane" aria-label="Sessions">
      <div className="session-pane__head">
        <div className="session-pane__search">
          <input
            className="text-input session-pane__filter"
            data-testid="session-filter"
            type="search"
            placeholder="Filter sessions"
            aria-label="Filter sessions"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'Enter') {
                scrollRef.current?.focus();
                onKeyDown(e);
              }
            }}
          />
          <SortControl prefs={prefs} sessions={sessions} />
        </div>
        <div className="session-pane__count">
          {/* With its tooltip: beside "Import folder…" in a narrow list it ellipsizes ("11 sess…"). */}
          <span className="session-pane__total" data-testid="session-count" title={total}>
            {total}
          </span>
          <ImportFolderButton />
        </div>
      </div>
      <div
        ref={scrollRef}
        className="session-list"
        data-testid="session-list"
        role="listbox"
        aria-label="Sessions"
        aria-activedescendant={activeId}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {status === 'loading' && sessions.length === 0 ? <div className="session-list__empty">Loading sessions…</div> : null}
        {status === 'ready' && sessions.length === 0 ? (
          <div className="session-list__empty">Imported sessions will be listed here.</div>
        ) : null}
        {status !== 'loading' && visible.length === 0 && sessions.length > 0 ? (
          <div className="session-list__empty">No session matches “{filter}”.</div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rendered.map(({ groupIndex, indexes }) => {
            const group = groups[groupIndex]!;
            const top = offsets[headerIndexes[groupIndex] ?? 0] ?? 0;
            const height = HEADER_HEIGHT + (group.collapsed ? 0 : group.sessions.length * ROW_HEIGHT);
            return (
              <div
                key={group.key}
                id={`session-group-${groupIndex}`}
                className="session-group"
                role="group"
                aria-label={group.name}
                data-testid="session-group"
                style={{ transform: `translateY(${top}px)`, height }}
              >
                {indexes.map((index) => {
                  const row = rows[index]!;
                  const rowTop = (offsets[index] ?? 0) - top;
                  if (row.type === 'group') {
                    return <GroupHeader key={`g:${group.key}`} group={group} top={rowTop} cursor={index === cursorIndex} onToggle={toggle} />;
                  }
                  return (
                    <SessionRow
                      key={row.session.id}
                      id={`session-option-${index}`}
                      session={row.session}
                      depth={group.depth?.get(row.session.id) ?? 0}
                      hidden={group.hidden?.get(row.session.id) ?? null}
                      onFoldLine={toggleLine}
                      top={rowTop}
                      selected={row.session.id === selectedSessionId}
                      cursor={index === cursorIndex}
                      onOpen={open}
                      onDelete={openDeleteSession}
                    />
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

const EMPTY: ReadonlySet<string> = new Set();
