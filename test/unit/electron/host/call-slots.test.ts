/**
 * The slots big answers take (electron/host/call-slots.ts): no more than the limit at once, the waiting served
 * in the order they asked, a release counted once, and a caller that gives up leaves the queue.
 */
import { describe, expect, it } from 'vitest';
import { createCallSlots } from '../../../../electron/host/call-slots';
import { settled } from '../../../fakes/held-answers';

describe('createCallSlots', () => {
  it('grants the limit at once and the rest in the order asked, as slots are released', async () => {
    const slots = createCallSlots(2);
    const signal = new AbortController().signal;
    const granted: number[] = [];
    const releases: (() => void)[] = [];
    for (let k = 0; k < 5; k++) void slots.acquire(signal).then((release) => (granted.push(k), releases.push(release!)));
    await settled();
    expect(granted).toEqual([0, 1]);
    expect(slots.waiting).toBe(3);
    releases[1]!();
    releases[1]!(); // a second release of the same slot frees nothing more
    await settled();
    expect(granted).toEqual([0, 1, 2]);
    releases[0]!();
    releases[2]!();
    await settled();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    expect(slots.waiting).toBe(0);
  });

  it('answers null to a caller that aborts while it waits, and gives its turn to the next', async () => {
    const slots = createCallSlots(1);
    const first = (await slots.acquire(new AbortController().signal))!;
    const gaveUp = new AbortController();
    const waiting = slots.acquire(gaveUp.signal);
    const next = slots.acquire(new AbortController().signal);
    gaveUp.abort();
    expect(await waiting).toBeNull();
    expect(slots.waiting).toBe(1);
    first();
    expect(typeof (await next)).toBe('function');
    expect(await slots.acquire(AbortSignal.abort())).toBeNull();
  });
});
