import { describe, expect, it } from 'vitest';
import { createConversationModeStore } from '../../../../renderer/src/conversation/conversation-mode';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

describe('the conversation mode', () => {
  it('starts beside the graph when the pane is wide, alone when not, until the user chooses', () => {
    const store = createConversationModeStore(memoryStorage());
    expect(store.getState().mode).toBe('graph');
    store.getState().setWide(true);
    expect(store.getState().mode).toBe('split');
    store.getState().toggleFullWidth();
    expect(store.getState().mode).toBe('conversation');
    store.getState().toggleFullWidth();
    expect(store.getState().mode).toBe('split');
    store.getState().setMode('graph');
    store.getState().setWide(false);
    store.getState().setWide(true);
    expect(store.getState().mode).toBe('graph');
  });

  it('remembers the mode and share, and c goes to full width and back', () => {
    const storage = memoryStorage();
    const store = createConversationModeStore(storage);
    store.getState().setMode('graph');
    store.getState().toggleFullWidth();
    expect(store.getState().mode).toBe('conversation');
    store.getState().toggleFullWidth();
    expect(store.getState().mode).toBe('graph');
    store.getState().setShare(0.95);
    expect(store.getState().share).toBe(0.8);
    const again = createConversationModeStore(storage);
    expect(again.getState()).toMatchObject({ mode: 'graph', share: 0.8 });
  });

  it('falls back to the default on a corrupt saved value', () => {
    const store = createConversationModeStore(memoryStorage({ 'arbor.conversation.v1': '{nope' }));
    expect(store.getState()).toMatchObject({ chosen: null, mode: 'graph', share: 0.5 });
    expect(createConversationModeStore(null).getState().chosen).toBeNull();
  });
});
