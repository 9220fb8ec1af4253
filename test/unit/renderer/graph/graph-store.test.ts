import { describe, expect, it } from 'vitest';
import { layoutSession } from '../../../../shared/graph/session-layout';
import { buildSessionStructure } from '../../../../shared/graph/session-structure';
import type { NodeId } from '../../../../shared/model';
import { createGraphStore } from '../../../../renderer/src/graph/graph-store';
import { SessionBuilder } from '../../shared/graph/session-builder';

function opened() {
  const s = new SessionBuilder();
  let at: NodeId | null = null;
  for (let k = 0; k < 400; k++) at = s.add(k % 2 === 0 ? 'user' : 'assistant', at);
  const structure = buildSessionStructure(s.nodes);
  const store = createGraphStore();
  store.getState().setSize(1200, 800);
  store.getState().setViewport({ x: 0, y: 0, zoom: 0.8 });
  store.getState().setLayout(structure, layoutSession(structure, new Set()), new Set(), -1);
  return store;
}

describe('graph store', () => {
  it('a pan that stays inside the mounted margin keeps the mounted nodes (remounting every frame of a pan dropped fps at 50k nodes)', () => {
    const store = opened();
    const before = store.getState().nodes;
    expect(before.length).toBeGreaterThan(0);
    store.getState().setViewport({ x: 0, y: -40, zoom: 0.8 });
    expect(store.getState().nodes).toBe(before);
    expect(store.getState().viewport.y).toBe(-40);
  });

  it('a pan beyond the margin, or across the detail zoom, mounts again', () => {
    const store = opened();
    const before = store.getState().nodes;
    store.getState().setViewport({ x: 0, y: -3000, zoom: 0.8 });
    const panned = store.getState().nodes;
    expect(panned).not.toBe(before);
    expect(panned.map((node) => node.id)).not.toEqual(before.map((node) => node.id));
    store.getState().setViewport({ x: 0, y: -3000, zoom: 0.4 });
    expect(store.getState().nodes).not.toBe(panned);
    expect(store.getState().nodes.every((node) => node.data.lod)).toBe(true);
  });
});
