import { describe, expect, it } from 'vitest';
import { summarizeLine } from '../../../../../electron/importers/codex/rollout-entry';

describe('a paginated FileChange item', () => {
  it('labelled every added file "Update" when the app server wrote the kind as a tagged object ({type: "add"})', () => {
    const entry = summarizeLine('event_msg', {
      type: 'item_completed',
      item: { type: 'FileChange', id: 'c1', status: 'completed', changes: [{ path: '/w/a.txt', kind: { type: 'add' }, diff: 'x\n' }, { path: '/w/b.txt', kind: { type: 'delete' }, diff: '' }] },
    }, '/w');
    expect(entry.as === 'step' ? entry.label : null).toBe('apply_patch: Add a.txt, Delete b.txt');
  });
});
