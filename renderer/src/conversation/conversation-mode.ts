/**
 * Where the conversation shows: not at all (the graph alone), beside the graph, or full width. Remembered
 * across restarts once chosen, with the conversation's share beside the graph. Until the user chooses, it
 * shows beside the graph when the pane is wide enough for both, else the graph alone.
 */
import { createStore } from 'zustand/vanilla';

export type ConversationMode = 'graph' | 'split' | 'conversation';
export const CONVERSATION_MODES: readonly ConversationMode[] = ['graph', 'split', 'conversation'];

const MODE_KEY = 'arbor.conversation.v1';
/** The conversation's share of the pane beside the graph. */
export const DEFAULT_SPLIT_SHARE = 0.5;
const clampShare = (share: number): number => Math.max(0.2, Math.min(0.8, share));

/** Below this pane width the graph and the conversation do not both fit readably. */
export const SPLIT_MIN_WIDTH = 900;

export interface ConversationModeState {
  /** What shows: the user's choice, else the default for the pane's width. */
  readonly mode: ConversationMode;
  /** The user's choice (null until one is made). */
  readonly chosen: ConversationMode | null;
  /** Whether the pane is wide enough for the graph and the conversation side by side. */
  readonly wide: boolean;
  /** The conversation's share (0.2–0.8) of the pane beside the graph. */
  readonly share: number;
  /** The mode before full width, so `c` goes back to it. */
  readonly previous: Exclude<ConversationMode, 'conversation'>;
  setMode(mode: ConversationMode): void;
  setWide(wide: boolean): void;
  setShare(share: number): void;
  /** `c`: full width, or back to what was shown before. */
  toggleFullWidth(): void;
}

function load(storage: Storage | null): { chosen: ConversationMode | null; share: number } {
  try {
    const saved = JSON.parse(storage?.getItem(MODE_KEY) ?? 'null') as { mode?: unknown; share?: unknown } | null;
    const chosen = CONVERSATION_MODES.find((m) => m === saved?.mode) ?? null;
    const share = typeof saved?.share === 'number' && Number.isFinite(saved.share) ? clampShare(saved.share) : DEFAULT_SPLIT_SHARE;
    return { chosen, share };
  } catch {
    // A corrupt saved mode falls back to the default.
    return { chosen: null, share: DEFAULT_SPLIT_SHARE };
  }
}

const shownMode = (chosen: ConversationMode | null, wide: boolean): ConversationMode => chosen ?? (wide ? 'split' : 'graph');

export function createConversationModeStore(storage: Storage | null) {
  const saved = load(storage);
  return createStore<ConversationModeState>()((set, get) => {
    const save = () => {
      try {
        storage?.setItem(MODE_KEY, JSON.stringify({ mode: get().chosen, share: get().share }));
      } catch {
        // A full or blocked storage only loses the remembered mode.
      }
    };
    return {
      mode: shownMode(saved.chosen, false),
      chosen: saved.chosen,
      wide: false,
      share: saved.share,
      previous: saved.chosen === 'split' ? 'split' : 'graph',
      setMode(mode) {
        set(mode === 'conversation' ? { mode, chosen: mode } : { mode, chosen: mode, previous: mode });
        save();
      },
      setWide(wide) {
        if (wide === get().wide) return;
        const mode = shownMode(get().chosen, wide);
        set(mode === 'conversation' ? { wide, mode } : { wide, mode, previous: mode });
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
