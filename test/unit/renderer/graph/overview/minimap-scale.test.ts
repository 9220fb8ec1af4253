import { describe, expect, it } from 'vitest';
import { MINIMAP_HEIGHT, MINIMAP_WIDTH, minimapHeight, minimapScale } from '../../../../../renderer/src/graph/overview/OverviewMinimap';
import { TURN_LANE_WIDTH, TURN_ROW_HEIGHT } from '../../../../../renderer/src/graph/overview/overview-camera';

describe('minimapScale', () => {
  it('draws a short session as thin bars instead of blocks over the cards (the demo filled the minimap with five turns)', () => {
    const { sy } = minimapScale({ width: TURN_LANE_WIDTH, height: 5 * TURN_ROW_HEIGHT });
    expect(TURN_ROW_HEIGHT * sy).toBeLessThanOrEqual(6);
    expect(5 * TURN_ROW_HEIGHT * sy).toBeLessThan(MINIMAP_HEIGHT / 4);
  });

  it('fits a long, wide session whole', () => {
    const size = { width: 7 * TURN_LANE_WIDTH, height: 2_000 * TURN_ROW_HEIGHT };
    const { sx, sy } = minimapScale(size);
    expect(size.height * sy).toBeCloseTo(MINIMAP_HEIGHT);
    expect(size.width * sx).toBeCloseTo(MINIMAP_WIDTH);
  });

  it('is as tall as its picture: the demo\'s five turns left a tall empty box over the cards', () => {
    const short = { width: TURN_LANE_WIDTH, height: 5 * TURN_ROW_HEIGHT };
    expect(minimapHeight(short)).toBeLessThan(MINIMAP_HEIGHT / 2);
    expect(minimapHeight(short)).toBeGreaterThanOrEqual(5 * TURN_ROW_HEIGHT * minimapScale(short).sy);
    expect(minimapHeight({ width: TURN_LANE_WIDTH, height: 2_000 * TURN_ROW_HEIGHT })).toBe(MINIMAP_HEIGHT);
  });
});
