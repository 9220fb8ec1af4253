/** The turn overview arrives from the layout worker; the UI thread never builds it again (~80 ms at 100k nodes). */
import { describe, expect, it } from 'vitest';
import { buildTurnOverview } from '../../../../../shared/graph/turn-overview';
import { createLayoutEngine } from '../../../../../renderer/src/graph/layout-engine';
import { createOverviewStore } from '../../../../../renderer/src/graph/overview/overview-store';
import { SessionBuilder } from '../../../shared/graph/session-builder';

function nodes() {
  const s = new SessionBuilder();
  let at: string | null = null;
  for (let k = 0; k < 6; k++) {
    at = s.add('user', at, { id: `u${k}` });
    at = s.add('assistant', at, { id: `a${k}` });
  }
  s.add('user', 'a2', { id: 'rewound' });
  return s.nodes;
}

describe('the turn overview from the layout engine', () => {
  it('the engine builds the opened session\'s overview where the layout runs, the same as building it here', async () => {
    const engine = createLayoutEngine();
    const opened = await engine.open(nodes(), new Set());
    const overview = await engine.overview();
    const here = buildTurnOverview(opened.structure);
    expect(overview.count).toBe(here.count);
    expect(Array.from(overview.turnOf)).toEqual(Array.from(here.turnOf));
    expect(Array.from(overview.mark)).toEqual(Array.from(here.mark));
    engine.dispose();
  });

  it('an overview handed to the store is the one the view reads (the main thread did not build it again), and a later one for the same session is ignored', async () => {
    const engine = createLayoutEngine();
    const opened = await engine.open(nodes(), new Set());
    const store = createOverviewStore();
    const fromWorker = await engine.overview();
    store.getState().setOverview(opened.structure, fromWorker);
    expect(store.getState().overviewOf(opened.structure).overview).toBe(fromWorker);
    store.getState().setOverview(opened.structure, await engine.overview());
    expect(store.getState().overview).toBe(fromWorker);
    expect(store.getState().grid).not.toBeNull();
    engine.dispose();
  });

  it('asking before a session was opened fails instead of answering with nothing', async () => {
    const engine = createLayoutEngine();
    await expect(engine.overview()).rejects.toThrow(/before the session was opened/);
    engine.dispose();
  });
});
