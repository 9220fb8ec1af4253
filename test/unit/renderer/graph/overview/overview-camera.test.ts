import { describe, expect, it } from 'vitest';
import { itemByNode } from '../../../../../shared/graph/folds';
import { layoutSession } from '../../../../../shared/graph/session-layout';
import { buildSessionStructure } from '../../../../../shared/graph/session-structure';
import { buildTurnOverview, indexTurns } from '../../../../../shared/graph/turn-overview';
import { indexRows } from '../../../../../shared/graph/viewport';
import { LANE_WIDTH, NODE_WIDTH, ROW_HEIGHT } from '../../../../../renderer/src/graph/mount-items';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  fitOverview,
  nearestTurn,
  overviewViewportAt,
  READABLE_OVERVIEW_ZOOM,
  stepsViewportForTurn,
  turnAtPoint,
  turnAtStepPoint,
  TURN_ROW_HEIGHT,
  zoomAbout,
} from '../../../../../renderer/src/graph/overview/overview-camera';
import { SessionBuilder } from '../../../shared/graph/session-builder';

function session(turns: number) {
  const s = new SessionBuilder();
  let at: string | null = null;
  for (let k = 0; k < turns; k++) {
    at = s.add('user', at, { id: `u${k}` });
    at = s.add('tool_call', at);
    at = s.add('tool_result', at);
    at = s.add('assistant', at, { id: `a${k}` });
  }
  const structure = buildSessionStructure(s.nodes);
  const layout = layoutSession(structure, new Set());
  const overview = buildTurnOverview(structure);
  return { s, structure, layout, overview, grid: indexTurns(overview), byNode: itemByNode(structure, layout.visible), rows: indexRows(layout.layout) };
}

describe('fitOverview', () => {
  it('fits a short session whole, centred', () => {
    const { overview } = session(5);
    const camera = fitOverview(overview, 1000, 800);
    expect(camera.zoom).toBeGreaterThanOrEqual(READABLE_OVERVIEW_ZOOM);
    const height = (5 * TURN_ROW_HEIGHT - (TURN_ROW_HEIGHT - CARD_HEIGHT)) * camera.zoom;
    expect(camera.y).toBeCloseTo((800 - height) / 2);
  });

  it('"Fit" on a session of thousands of turns stays readable: full width from the top, not a hairline', () => {
    const { overview } = session(3000);
    const camera = fitOverview(overview, 1000, 800);
    expect(camera.zoom).toBeGreaterThanOrEqual(READABLE_OVERVIEW_ZOOM);
    expect(camera.y).toBe(32);
  });

  it('keeps the selected turn in view when the whole does not fit', () => {
    const { overview } = session(3000);
    const camera = fitOverview(overview, 1000, 800, 2000);
    const top = 2000 * TURN_ROW_HEIGHT * camera.zoom + camera.y;
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(800);
  });
});

describe('hand-over between the overview and the steps', () => {
  it('a turn opens into steps with its prompt under the same screen point', () => {
    const { structure, layout, byNode, overview, s } = session(50);
    const { viewport, item } = stepsViewportForTurn(structure, layout, byNode, overview, 20, 400, 300);
    expect(structure.nodes[layout.visible.node[item]!]!.id).toBe('u20');
    expect(s.nodes[overview.start[20]!]!.id).toBe('u20');
    const screenX = (layout.layout.lane[item]! * LANE_WIDTH + NODE_WIDTH / 2) * viewport.zoom + viewport.x;
    const screenY = layout.layout.row[item]! * ROW_HEIGHT * viewport.zoom + viewport.y;
    expect(screenX).toBeCloseTo(400);
    expect(Math.abs(screenY - 300)).toBeLessThan(40);
  });

  it('zooming the steps out opens the overview at the turn that was in view', () => {
    const { structure, layout, rows, overview } = session(50);
    // The steps camera centred on the 31st prompt's row.
    const row = layout.layout.row[itemByNode(structure, layout.visible)[structure.indexById.get('u30')!]!]!;
    const zoom = 0.1;
    const viewport = { x: 500 - (NODE_WIDTH / 2) * zoom, y: 400 - row * ROW_HEIGHT * zoom, zoom };
    const turn = turnAtStepPoint(structure, layout, rows, overview, viewport, 500, 400);
    expect(turn).toBe(30);
    const camera = overviewViewportAt(overview, turn, 500, 400);
    expect(turnAtPoint(overview, camera, 500, 400)).toBe(30);
  });

  it('a point between cards still finds the nearest turn', () => {
    const { overview, grid } = session(10);
    expect(nearestTurn(overview, grid, CARD_WIDTH + 5, 4 * TURN_ROW_HEIGHT + CARD_HEIGHT + 2)).toBe(4);
    expect(turnAtPoint(overview, { x: 0, y: 0, zoom: 1 }, CARD_WIDTH + 5, 10)).toBe(-1);
  });

  it('zooms about the pointer: the world point under it stays put', () => {
    const camera = { x: 10, y: 20, zoom: 0.5 };
    const next = zoomAbout(camera, 2, 300, 200);
    expect((300 - next.x) / next.zoom).toBeCloseTo((300 - camera.x) / camera.zoom);
    expect((200 - next.y) / next.zoom).toBeCloseTo((200 - camera.y) / camera.zoom);
  });
});
