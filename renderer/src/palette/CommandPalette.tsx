import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../../shared/model';
import { useAppState, useAppStoreApi, useArborClient } from '../app/app-context';
import { KIND_LABELS, relativeTime, shortenPath } from '../app/format';
import { Snippet } from '../search/Snippet';
import { builtinActions, type PaletteControls } from './builtin-actions';
import { rankByMatch } from './palette-match';
import { useRegisteredActions, type PaletteAction } from './palette-registry';
import './palette.css';

const NODE_SEARCH_DEBOUNCE_MS = 150;
const MAX_ACTIONS = 12;
const MAX_SESSIONS = 6;
const MAX_NODES = 8;

interface PaletteItem {
  readonly key: string;
  readonly section: 'Actions' | 'Sessions' | 'Jump to a node';
  readonly title: string;
  readonly detail?: React.ReactNode;
  readonly keys?: string;
  readonly run: () => void;
}

interface CommandPaletteProps extends PaletteControls {
  readonly onClose: () => void;
}

/**
 * Ctrl/Cmd+K: type to find an action (fork, rewind, compare, merge, views, filters), a session by title or
 * project, or a node by its text (full-text search); Enter runs it. Actions come from builtin-actions.ts
 * and from whatever registered in palette-registry.ts.
 */
export function CommandPalette({ onClose, showShortcuts, focusSearch }: CommandPaletteProps) {
  const store = useAppStoreApi();
  const client = useArborClient();
  const sessions = useAppState((s) => s.sessions);
  const selectedNodeId = useAppState((s) => s.selectedNodeId);
  const compareNodeId = useAppState((s) => s.compareNodeId);
  const registered = useRegisteredActions();
  const [text, setText] = useState('');
  const [cursor, setCursor] = useState(0);
  const [hits, setHits] = useState<readonly SearchHit[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    inputRef.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);

  // Nodes by text: the same full-text search as the header's, its own request so the header keeps its hits.
  useEffect(() => {
    const query = text.trim();
    if (query.length < 2) {
      setHits([]);
      return;
    }
    const request = new AbortController();
    const timer = setTimeout(() => {
      client
        .call('search.query', { query, limit: MAX_NODES }, { signal: request.signal })
        .then(({ hits: found }) => !request.signal.aborted && setHits(found))
        .catch(() => !request.signal.aborted && setHits([]));
    }, NODE_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      request.abort();
    };
  }, [text, client]);

  const items = useMemo((): PaletteItem[] => {
    const state = store.getState();
    const all: PaletteAction[] = [...builtinActions(state, { showShortcuts, focusSearch }), ...registered];
    const actions = rankByMatch(text, all, (a) => `${a.title} ${a.group} ${a.keywords ?? ''}`, MAX_ACTIONS).map(
      (a): PaletteItem => ({ key: `action:${a.id}`, section: 'Actions', title: a.title, detail: a.group, keys: a.keys, run: a.run }),
    );
    const openSessions = text.trim() === '' ? [] : rankByMatch(text, sessions, (s) => `${s.title} ${s.project ?? ''}`, MAX_SESSIONS);
    const sessionItems = openSessions.map(
      (s): PaletteItem => ({
        key: `session:${s.id}`,
        section: 'Sessions',
        title: s.title,
        detail: `${shortenPath(s.project) || 'unknown project'} · ${relativeTime(s.updatedAt ?? s.startedAt)}`,
        run: () => void state.openSession(s.id),
      }),
    );
    const nodeItems = hits.map(
      (hit, i): PaletteItem => ({
        key: `node:${hit.nodeId}:${i}`,
        section: 'Jump to a node',
        title: hit.sessionTitle,
        detail: (
          <>
            <span className="palette__kind">{KIND_LABELS[hit.kind]}</span> <Snippet snippet={hit.snippet} />
          </>
        ),
        run: () => void state.openSession(hit.sessionId, hit.nodeId),
      }),
    );
    return [...actions, ...sessionItems, ...nodeItems];
    // selectedNodeId / compareNodeId change which built-in actions can run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, sessions, hits, registered, store, showShortcuts, focusSearch, selectedNodeId, compareNodeId]);

  useEffect(() => setCursor(0), [text]);
  const active = Math.min(cursor, items.length - 1);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    // After the palette has gone (and given focus back), so a dialog the action opens keeps its focus.
    setTimeout(item.run, 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setCursor(items.length === 0 ? 0 : (active + 1) % items.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        setCursor(items.length === 0 ? 0 : (active - 1 + items.length) % items.length);
        break;
      case 'Enter':
        event.preventDefault();
        run(items[active]);
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        onClose();
        break;
      default:
        break;
    }
  };

  return (
    <div className="palette-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="command-palette">
        <input
          ref={inputRef}
          className="palette__input"
          data-testid="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-items"
          aria-activedescendant={items.length > 0 ? `palette-item-${active}` : undefined}
          aria-autocomplete="list"
          aria-label="Type an action, a session or text to jump to"
          placeholder="Type an action, a session, or text to jump to…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="palette__items" id="palette-items" role="listbox" aria-label="Results" ref={listRef}>
          {items.length === 0 ? <div className="palette__empty">Nothing matches “{text.trim()}”.</div> : null}
          {sectionsOf(items).map(({ section, from, to }) => (
            <div key={section} role="group" aria-labelledby={`palette-section-${from}`}>
              <div className="palette__section" id={`palette-section-${from}`}>
                {section}
              </div>
              {items.slice(from, to).map((item, offset) => {
                const i = from + offset;
                return (
                  <div
                    key={item.key}
                    id={`palette-item-${i}`}
                    className={`palette__item ${i === active ? 'is-active' : ''}`}
                    data-testid="palette-item"
                    data-key={item.key}
                    data-index={i}
                    role="option"
                    aria-selected={i === active}
                    onMouseMove={() => i !== active && setCursor(i)}
                    onMouseDown={(e) => {
                      e.preventDefault();
                      run(item);
                    }}
                  >
                    <span className="palette__title">{item.title}</span>
                    {item.detail ? <span className="palette__detail">{item.detail}</span> : null}
                    {item.keys ? <kbd className="palette__keys">{item.keys}</kbd> : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        <div className="palette__foot" aria-hidden="true">
          <span>
            <kbd>↑</kbd> <kbd>↓</kbd> move
          </span>
          <span>
            <kbd>Enter</kbd> run
          </span>
          <span>
            <kbd>Esc</kbd> close
          </span>
        </div>
      </div>
    </div>
  );
}

/** Consecutive runs of one section: items arrive already ordered actions, sessions, nodes. */
function sectionsOf(items: readonly PaletteItem[]): { section: PaletteItem['section']; from: number; to: number }[] {
  const runs: { section: PaletteItem['section']; from: number; to: number }[] = [];
  items.forEach((item, i) => {
    const last = runs[runs.length - 1];
    if (last && last.section === item.section) last.to = i + 1;
    else runs.push({ section: item.section, from: i, to: i + 1 });
  });
  return runs;
}
