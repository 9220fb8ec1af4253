import { describe, expect, it, vi } from 'vitest';
import { createPaletteRegistry, type PaletteAction } from '../../../../renderer/src/palette/palette-registry';

const action = (id: string, title = id): PaletteAction => ({ id, title, group: 'Test', run: () => undefined });

describe('the palette action registry', () => {
  it('lists what is registered, tells subscribers, and the disposer removes exactly those actions', () => {
    const registry = createPaletteRegistry();
    const listener = vi.fn();
    const unsubscribe = registry.subscribe(listener);
    const removeA = registry.register([action('a'), action('b')]);
    const removeC = registry.register([action('c')]);
    expect(registry.actions().map((a) => a.id)).toEqual(['a', 'b', 'c']);
    removeA();
    expect(registry.actions().map((a) => a.id)).toEqual(['c']);
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    removeC();
    expect(registry.actions()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('a later registration of an id replaces it, and the earlier disposer does not remove the newer one', () => {
    const registry = createPaletteRegistry();
    const removeOld = registry.register([action('conversation.toggle', 'old')]);
    registry.register([action('conversation.toggle', 'new')]);
    removeOld();
    expect(registry.actions().map((a) => a.title)).toEqual(['new']);
  });

  it('the snapshot is stable between changes (useSyncExternalStore needs that)', () => {
    const registry = createPaletteRegistry();
    registry.register([action('a')]);
    expect(registry.actions()).toBe(registry.actions());
  });
});
