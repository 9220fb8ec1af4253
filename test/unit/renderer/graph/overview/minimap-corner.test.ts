/** Where the minimap goes so that it never covers the selection (issue 11). */
import { describe, expect, it } from 'vitest';
import { buildSessionStructure } from '../../../../../shared/graph/session-structure';
import { buildTurnOverview } from '../../../../../shared/graph/turn-overview';
import { MINIMAP_HEIGHT, MINIMAP_MIN_PANE_WIDTH, minimapCorner } from '../../../../../renderer/src/graph/overview/OverviewMinimap';
import { CARD_HEIGHT, TURN_LANE_WIDTH, TURN_ROW_HEIGHT } from '../../../../../renderer/src/graph/overview/overview-camera';
import { SessionBuilder } from '../../../shared/graph/session-builder';

/** Ten prompt/answer turns on one line: one card per turn in lane 0. */
function overviewOf() {
  const s = new SessionBuilder();
  let at: string | null = null;
  for (let k = 0; k < 10; k++) {
    at = s.add('user', at, { id: `u${k}` });
    at = s.add('assistant', at, { id: `a${k}` });
  }
  const structure = buildSessionStructure(s.nodes);
  return buildTurnOverview(structure);
}

const overview = overviewOf();
/** The graph's state with the overview showing and the prompt of turn 9 (node 18) selected. */
function withCardAt(screenX: number, screenY: number, width = 1000, height = 700) {
  const zoom = 1;
  const camera = { x: screenX - overview.layout.lane[9]! * TURN_LANE_WIDTH * zoom, y: screenY - overview.layout.row[9]! * TURN_ROW_HEIGHT * zoom, zoom };
  return {
    graph: { selectedNode: 18, byNode: null, layout: null, viewport: { x: 0, y: 0, zoom: 1 }, width, height },
    view: { active: true, camera },
  };
}

describe('minimapCorner', () => {
  it('stays bottom right while the selection is elsewhere', () => {
    const { graph, view } = withCardAt(400, 100);
    expect(minimapCorner(graph, view, overview)).toBe('right');
    expect(minimapCorner({ ...graph, selectedNode: -1 }, view, overview)).toBe('right');
  });

  it('moves to the left corner when the selection would be under it on the right', () => {
    const { graph, view } = withCardAt(1000 - 200, 700 - CARD_HEIGHT - 20);
    expect(minimapCorner(graph, view, overview)).toBe('left');
  });

  it('hides when the selection would be under both corners (a wide card in a short pane), and comes back once it is not', () => {
    // A card 240 px wide at zoom 1 cannot span both corners of a 1000 px pane; at zoom 4 it can.
    const zoom = 4;
    const graph = { selectedNode: 18, byNode: null, layout: null, viewport: { x: 0, y: 0, zoom: 1 }, width: 1000, height: 700 };
    const camera = { x: 20 - overview.layout.lane[9]! * TURN_LANE_WIDTH * zoom, y: 700 - CARD_HEIGHT * zoom - overview.layout.row[9]! * TURN_ROW_HEIGHT * zoom, zoom };
    expect(minimapCorner(graph, { active: true, camera }, overview)).toBe('none');
    expect(minimapCorner(graph, { active: true, camera: { ...camera, y: camera.y - 600 } }, overview)).toBe('right');
  });

  it('the minimap covered the cards just below the selection: it moves to the corner that leaves them free where one does', () => {
    // The selected card sits one row above the minimap's top on the right: the next card would be under it.
    const { graph, view } = withCardAt(1000 - 200, 700 - MINIMAP_HEIGHT - 20 - 8 - CARD_HEIGHT - TURN_ROW_HEIGHT + CARD_HEIGHT);
    expect(minimapCorner(graph, view, overview)).toBe('left');
    // Far from both corners, nothing moves.
    expect(minimapCorner(graph, withCardAt(400, 100).view, overview)).toBe('right');
  });

  it('when the cards around the selection are under both corners, it still keeps the selection itself free', () => {
    // A card 240 px wide at zoom 2.2 reaches, with a lane either side, under both corners of a 1000 px pane,
    // but the card itself stays clear of the right corner.
    const zoom = 2.2;
    const graph = { selectedNode: 18, byNode: null, layout: null, viewport: { x: 0, y: 0, zoom: 1 }, width: 1000, height: 700 };
    const camera = { x: 250 - overview.layout.lane[9]! * TURN_LANE_WIDTH * zoom, y: 700 - CARD_HEIGHT * zoom - overview.layout.row[9]! * TURN_ROW_HEIGHT * zoom, zoom };
    expect(minimapCorner(graph, { active: true, camera }, overview)).toBe('right');
  });

  it('hides in a pane too narrow to spare the room', () => {
    const { graph, view } = withCardAt(20, 20, MINIMAP_MIN_PANE_WIDTH - 1);
    expect(minimapCorner(graph, view, overview)).toBe('none');
    expect(minimapCorner({ ...graph, width: MINIMAP_MIN_PANE_WIDTH }, view, overview)).toBe('right');
  });
});
