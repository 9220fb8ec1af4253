/** The preview token binds the plan: any change to what the rewind would read or write gives another token. */
import { describe, expect, it } from 'vitest';
import { planToken } from '../../../../electron/snapshots/rewind';
import type { PlannedFileChange } from '../../../../electron/operations/operation-types';

const oid = (n: number): string => n.toString(16).padStart(40, '0');
const changes: PlannedFileChange[] = [
  { path: 'a.txt', expected: { oid: oid(1), mode: '100644' }, target: { oid: oid(2), mode: '100644' } },
  { path: 'new.txt', expected: null, target: { oid: oid(3), mode: '100644' } },
  { path: 'old.txt', expected: { oid: oid(4), mode: '100644' }, target: null },
];
const base = { workspace: '/work/project', changes };
const token = planToken('node-1', base);
const withChange = (i: number, change: Partial<PlannedFileChange>) => ({ ...base, changes: changes.map((c, j) => (j === i ? { ...c, ...change } : c)) });

describe('planToken', () => {
  it('is the same for the same plan, and a 32-digit hex string', () => {
    expect(planToken('node-1', { workspace: '/work/project', changes: changes.map((c) => ({ ...c })) })).toBe(token);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ['another node', () => planToken('node-2', base)],
    ['another workspace', () => planToken('node-1', { ...base, workspace: '/work/project-copy' })],
    ["a planned file's current content", () => planToken('node-1', withChange(0, { expected: { oid: oid(9), mode: '100644' } }))],
    ["a planned file's current mode", () => planToken('node-1', withChange(0, { expected: { oid: oid(1), mode: '100755' } }))],
    ['a file now present where the plan creates one', () => planToken('node-1', withChange(1, { expected: { oid: oid(3), mode: '100644' } }))],
    ['another target', () => planToken('node-1', withChange(0, { target: { oid: oid(8), mode: '100644' } }))],
    ['a deletion instead of a write', () => planToken('node-1', withChange(0, { target: null }))],
    ['another path', () => planToken('node-1', withChange(0, { path: 'b.txt' }))],
    ['one change fewer', () => planToken('node-1', { ...base, changes: changes.slice(1) })],
    ['an empty plan', () => planToken('node-1', { ...base, changes: [] })],
  ])('changes with %s', (_, other) => {
    expect(other()).not.toBe(token);
  });
});
