import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { SessionId, SessionSummary } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { absoluteTime, formatCount, plural, relativeTime, shortenPath } from '../app/format';
import { filterSessions } from '../state/sessions-slice';
import { BranchIcon } from '../app/icons';
import { ImportFolderButton } from './ImportFolder';

const ROW_HEIGHT = 74;

/**
 * Before layout (first paint, or a DOM without layout such as tests) the pane measures 0 high and would
 * show no rows; assume the window's height until a real size arrives.
 */
function observeRectOrWindow(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight || 800 }));
}

/** The left pane: every imported session, newest first, filterable, virtualized, keyboard-driven. */
export function SessionList() {
  const sessions = useAppState((s) => s.sessions);
  const status = useAppState((s) => s.sessionsStatus);
  const filter = useAppState((s) => s.sessionFilter);
  const setFilter = useAppState((s) => s.setSessionFilter);
  const selectedSessionId = useAppState((s) => s.selectedSessionId);
  const openSession = useAppState((s) => s.openSession);
  const visible = useMemo(() => filterSessions(sessions, filter), [sessions, filter]);
  // The keyboard cursor; starts at the open session so up/down continue from there.
  const [cursorId, setCursorId] = useState<SessionId | null>(null);
  const cursorIndex = useMemo(() => {
    const id = cursorId ?? selectedSessionId;
    return id === null ? -1 : visible.findIndex((s) => s.id === id);
  }, [visible, cursorId, selectedSessionId]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => visible[index]?.id ?? index,
    observeElementRect: observeRectOrWindow,
  });

  // When a session is opened from elsewhere (search, demo), bring its row into view.
  useEffect(() => {
    if (selectedSessionId === null) return;
    const index = visible.findIndex((s) => s.id === selectedSessionId);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
    // Only a change of the open session should scroll, not every list refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedSessionId]);

  const open = useCallback(
    (id: SessionId) => {
      setCursorId(id);
      void openSession(id);
    },
    [openSession],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    if (visible.length === 0) return;
    let next = cursorIndex;
    switch (event.key) {
      case 'ArrowDown':
        next = Math.min(visible.length - 1, cursorIndex + 1);
        break;
      case 'ArrowUp':
        next = Math.max(0, cursorIndex - 1);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = visible.length - 1;
        break;
      case 'Enter': {
        const target = visible[Math.max(0, cursorIndex)];
        if (target) open(target.id);
        event.preventDefault();
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    const target = visible[next];
    if (!target) return;
    setCursorId(target.id);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  return (
    <section className="session-pane" aria-label="Sessions">
      <div className="session-pane__head">
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
        <div className="session-pane__count">
          {filter ? `${formatCount(visible.length)} of ${formatCount(sessions.length)}` : plural(sessions.length, 'session')}
          <ImportFolderButton />
        </div>
      </div>
      <div
        ref={scrollRef}
        className="session-list"
        data-testid="session-list"
        role="listbox"
        aria-label="Sessions"
        aria-activedescendant={cursorIndex >= 0 ? `session-row-${cursorIndex}` : undefined}
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
          {virtualizer.getVirtualItems().map((item) => {
            const session = visible[item.index];
            if (!session) return null;
            return (
              <SessionRow
                key={item.key}
                index={item.index}
                session={session}
                top={item.start}
                selected={session.id === selectedSessionId}
                cursor={item.index === cursorIndex}
                onOpen={open}
              />
            );
          })}
        </div>
      </div>
    </section>
  );
}

interface SessionRowProps {
  readonly index: number;
  readonly session: SessionSummary;
  readonly top: number;
  readonly selected: boolean;
  readonly cursor: boolean;
  readonly onOpen: (id: SessionId) => void;
}

const SessionRow = memo(function SessionRow({ index, session, top, selected, cursor, onOpen }: SessionRowProps) {
  const when = session.updatedAt ?? session.startedAt;
  const classes = ['session-row', selected ? 'is-selected' : '', cursor ? 'is-cursor' : ''].filter(Boolean).join(' ');
  return (
    <div
      id={`session-row-${index}`}
      className={classes}
      data-testid="session-row"
      data-session-id={session.id}
      role="option"
      aria-selected={selected}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(session.id)}
    >
      <div className="session-row__title" title={session.title}>
        {session.title}
      </div>
      <div className="session-row__meta">
        <span className="session-row__project" title={session.project ?? undefined}>
          {shortenPath(session.project) || 'unknown project'}
        </span>
        <span className="session-row__date" title={absoluteTime(when)}>
          {relativeTime(when)}
        </span>
      </div>
      <div className="session-row__stats">
        <span>{plural(session.nodeCount, 'node')}</span>
        {session.branchCount > 0 ? (
          <span className="badge badge--branch" title={`${session.branchCount} branch points (rewinds, edited prompts, forks, merges)`}>
            <BranchIcon /> {session.branchCount}
          </span>
        ) : null}
      </div>
    </div>
  );
});
