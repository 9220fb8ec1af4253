/**
 * Puts the conversation beside the graph, or full width, or away; the mode buttons sit in the session's
 * header and `c` switches full width on and off. The graph stays mounted when hidden, so coming back to
 * it costs no new layout.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { SessionGraph } from '../../../shared/model';
import { ViewIcon } from '../app/icons';
import { PaneSplitter } from '../app/PaneSplitter';
import { useAppStoreApi } from '../app/app-context';
import { usePaletteActions, type PaletteAction } from '../palette/palette-registry';
import { conversationMode, SPLIT_MIN_WIDTH, type ConversationMode } from './conversation-mode';
import { ConversationView } from './ConversationView';
import './conversation.css';

const MODE_LABELS: Record<ConversationMode, string> = { graph: 'Graph', split: 'Both', conversation: 'Conversation' };
const MODE_TITLES: Record<ConversationMode, string> = {
  graph: 'Show the graph only',
  split: 'Show the conversation beside the graph',
  conversation: 'Show the conversation full width (C)',
};

/** `graph`: the open session's graph, or null when none is on screen (then only `children` show). */
export function ConversationLayout({ graph, children }: { graph: SessionGraph | null; children: ReactNode }) {
  const mode = useStore(conversationMode, (s) => s.mode);
  const share = useStore(conversationMode, (s) => s.share);
  const setShare = useStore(conversationMode, (s) => s.setShare);
  const layout = useRef<HTMLDivElement>(null);
  const paneWidth = () => layout.current?.clientWidth ?? 1000;
  useFullWidthKey(graph !== null);
  // Until the user picks a mode, the pane's width decides whether the conversation fits beside the graph.
  useEffect(() => {
    const element = layout.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0) conversationMode.getState().setWide(element.clientWidth >= SPLIT_MIN_WIDTH);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const shown = graph === null ? 'graph' : mode;
  // Once shown, the conversation stays mounted (parked, out of sight) while the graph is shown alone, so a
  // switch back keeps its row heights, scroll position and fetched details instead of rebuilding them.
  const [kept, setKept] = useState<string | null>(null);
  const sessionId = graph?.session.id ?? null;
  if (shown !== 'graph' && sessionId !== null && kept !== sessionId) setKept(sessionId);
  // The same elements in every mode, so the graph is never remounted by a switch.
  return (
    <div
      ref={layout}
      className={`conv-layout conv-layout--${shown}`}
      style={shown === 'split' ? { gridTemplateColumns: `minmax(160px, ${1 - share}fr) 5px minmax(280px, ${share}fr)` } : undefined}
    >
      <div className="conv-layout__graph" hidden={shown === 'conversation'}>
        {children}
      </div>
      {shown === 'split' ? <PaneSplitter label="Resize conversation" direction={-1} width={share * paneWidth()} onResize={(w) => setShare(w / paneWidth())} /> : null}
      {graph !== null && (shown !== 'graph' || kept === graph.session.id) ? <ConversationView graph={graph} parked={shown === 'graph'} /> : null}
    </div>
  );
}

export function ConversationModeSwitch() {
  const mode = useStore(conversationMode, (s) => s.mode);
  const setMode = useStore(conversationMode, (s) => s.setMode);
  // The palette offers the same three views, and the full-width toggle under its key.
  const actions = useMemo<PaletteAction[]>(
    () => [
      { id: 'conversation.toggle', title: 'Toggle the conversation full width', group: 'View', keys: 'c', keywords: 'transcript read', run: () => conversationMode.getState().toggleFullWidth() },
      ...(['graph', 'split', 'conversation'] as const).map((m) => ({
        id: `conversation.mode.${m}`,
        title: MODE_TITLES[m].replace(' (C)', ''),
        group: 'View',
        keywords: 'conversation transcript graph',
        run: () => conversationMode.getState().setMode(m),
      })),
    ],
    [],
  );
  usePaletteActions(actions);
  return (
    <div className="conv-mode" role="group" aria-label="Session view" data-testid="conversation-mode">
      {(['graph', 'split', 'conversation'] as const).map((m) => (
        <button key={m} type="button" className={`conv-mode__button${mode === m ? ' is-on' : ''}`} aria-pressed={mode === m} aria-label={MODE_LABELS[m]} title={MODE_TITLES[m]} onClick={() => setMode(m)}>
          <ViewIcon view={m} />
          <span className="head-label">{MODE_LABELS[m]}</span>
        </button>
      ))}
    </div>
  );
}

function useFullWidthKey(active: boolean) {
  const appStore = useAppStoreApi();
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'c' || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, .cm-editor'))) return;
      if (appStore.getState().timeTravelDialog !== null) return;
      event.preventDefault();
      conversationMode.getState().toggleFullWidth();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, appStore]);
}
