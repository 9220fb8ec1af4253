import { describe, expect, it } from 'vitest';
import { createWrapPreference, isWrapShortcut, WRAP_KEY } from '../../../../renderer/src/merge/wrap-preference';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value), values };
}

describe('the merge view\'s wrap preference', () => {
  it('starts off, toggles, and is read back by the next window (a reload)', () => {
    const storage = memoryStorage();
    const first = createWrapPreference(storage);
    expect(first.getState().wrap).toBe(false);
    first.getState().toggle();
    expect(first.getState().wrap).toBe(true);
    expect(storage.values.get(WRAP_KEY)).toBe('1');
    expect(createWrapPreference(storage).getState().wrap).toBe(true);
    first.getState().toggle();
    expect(createWrapPreference(storage).getState().wrap).toBe(false);
  });

  it('still toggles when storage refuses (a sandboxed window)', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const preference = createWrapPreference(refusing);
    expect(preference.getState().wrap).toBe(false);
    preference.getState().toggle();
    expect(preference.getState().wrap).toBe(true);
    expect(createWrapPreference(null).getState().wrap).toBe(false);
  });

  it('is Alt+Z by physical key, and nothing with Ctrl, ⌘ or Shift', () => {
    const key = (over: Partial<KeyboardEvent>) => ({ altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, code: 'KeyZ', ...over });
    expect(isWrapShortcut(key({}))).toBe(true);
    expect(isWrapShortcut(key({ altKey: false }))).toBe(false);
    expect(isWrapShortcut(key({ ctrlKey: true }))).toBe(false);
    expect(isWrapShortcut(key({ shiftKey: true }))).toBe(false);
    expect(isWrapShortcut(key({ code: 'KeyY' }))).toBe(false);
  });
});
