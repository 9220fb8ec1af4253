/**
 * expect(actual).toEqual(expected) for the big typed-array structures of a session graph: vitest's toEqual walks
 * them element by element through its generic equality (2.9 s for one 600-turn structure, most of a test's time).
 * Node's deep strict equality answers the same question far faster; only when it says "unequal" does toEqual run,
 * to give its verdict (it is looser: undefined properties, prototypes) and its diff. So this passes exactly when
 * toEqual would.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

export function expectDeepEqual<T>(actual: unknown, expected: T): void {
  if (isDeepStrictEqual(actual, expected)) return;
  expect(actual).toEqual(expected);
}
