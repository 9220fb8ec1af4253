/**
 * Where the conversation shows: not at all (the graph alone), beside the graph, or full width. Remembered
 * across restarts, with the width of the conversation beside the graph.
 */
import { createStore } from 'zustand/vanilla';

export type ConversationMode = 'graph' | 'split' | 'conversation';
export const CONVERSATION_MODES: readonly ConversationMode[] = ['graph', 'split', 'conversation'];

const MODE_KEY = 'arbor.conversation.v1';
/** The conversation's share of the pane beside the graph. */
export const DEFAULT_SPLIT_SHARE = 0.5;
const clampShare = (share: number): number => Math.max(0.2, Math.min(0.8, share));

export interface ConversationModeState {
  readonly mode: ConversationMode;
  /** The conversation's share (0.2–0.8) of the pane beside the graph. */
  readonly share: number;
  /** The mode before full width, so `c` goes back to it. */
  readonly previous: Exclude<ConversationMode, 'conversation'>;
  setMode(mode: ConversationMode): void;
  setShare(share: number): void;
  /** `c`: full width, or back to what was shown before. */
  toggleFullWidth(): void;
}

function load(storage: Storage | null): { mode: ConversationMode; share: number } {
  try {
    const saved = JSON.parse(storage?.getItem(MODE_KEY) ?? 'null') as { mode?: unknown; share?: unknown } | null;
    const mode = CONVERSATION_MODES.find((m) => m === saved?.mode) ?? 'split';
    const share = typeof saved?.share === 'number' && Number.isFinite(saved.share) ? clampShare(saved.share) : DEFAULT_SPLIT_SHARE;
    return { mode, share };
  } catch {
    // A corrupt saved mode falls back to the default.
    return { mode: 'split', share: DEFAULT_SPLIT_SHARE };
  }
}

export function createConversationModeStore(storage: Storage | null) {
  const saved = load(storage);
  return createStore<ConversationModeState>()((set, get) => {
    const save = () => {
      try {
        storage?.setItem(MODE_KEY, JSON.stringify({ mode: get().mode, share: get().share }));
      } catch {
        // A full or blocked storage only loses the remembered mode.
      }
    };
    return {
      mode: saved.mode,
      share: saved.share,
      previous: saved.mode === 'graph' ? 'graph' : 'split',
      setMode(mode) {
        set(mode === 'conversation' ? { mode } : { mode, previous: mode });
        save();
      },
      setShare(share) {
        set({ share: clampShare(share) });
        save();
      },
      toggleFullWidth() {
        get().setMode(get().mode === 'conversation' ? get().previous : 'conversation');
      },
    };
  });
}

const browserStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The window's one mode store (the mode is a preference of the window, not of a session). */
export const conversationMode = createConversationModeStore(browserStorage());
