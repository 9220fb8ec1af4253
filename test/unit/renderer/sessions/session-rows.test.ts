import { describe, expect, it } from 'vitest';
import { narrowRelativeTime, relativeTime } from '../../../../renderer/src/app/format';
import { sizeText, sizeTooltip } from '../../../../renderer/src/sessions/SessionRows';
import { session } from '../fake-client';

describe('a session row\'s size', () => {
  it('a 20k-node session\'s size was cut by its branch badge: counts from 10,000 on read in thousands, the tooltip stays exact', () => {
    const big = session('big', { nodeCount: 20_004, bytes: 54_100_000, branchCount: 29 });
    expect(sizeText(big)).toBe('20.0k nodes · 51.6 MB');
    expect(sizeTooltip(big)).toMatch(/^20,004 nodes · 51\.6 MB \(54,100,000 bytes of transcripts\)$/);
    expect(sizeText(session('small', { nodeCount: 9_999, bytes: undefined }))).toBe('9,999 nodes');
    expect(sizeText(session('huge', { nodeCount: 1_000_003 }))).toBe('1000k nodes');
  });
});

describe("a session row's date", () => {
  it('at 190 px "11 months ago" took the size\'s room: the narrow form says the same in fewer characters', () => {
    const now = Date.UTC(2026, 11, 1);
    const when = new Date(now - 330 * 24 * 3600_000).toISOString();
    expect(relativeTime(when, now)).toMatch(/11 months ago/);
    expect(narrowRelativeTime(when, now)).toMatch(/^11\s?mo\.? ago$/);
    expect(narrowRelativeTime(when, now).length).toBeLessThan(relativeTime(when, now).length);
    expect(narrowRelativeTime(null, now)).toBe('—');
  });
});
