import { describe, expect, it } from 'vitest';
import { mergeText, renderRegions, type ConflictResolution, type MergeRegion } from '../../../../shared/merge';
import { generatedTriples } from '../../../integration/merge/triples';

const regions: readonly MergeRegion[] = [
  { kind: 'clean', lines: ['start\n'] },
  { kind: 'conflict', ours: ['ours'], base: ['base\n'], theirs: ['theirs\n'], eol: '\n', at: { ours: 1, base: 1, theirs: 1 } },
  { kind: 'clean', lines: ['middle\n'] },
  { kind: 'conflict', ours: ['o2\r\n'], base: [], theirs: ['t2\r\n'], eol: '\r\n', at: { ours: 3, base: 3, theirs: 3 } },
];

describe('renderRegions', () => {
  it('writes unresolved conflicts with markers and counts them', () => {
    const { text, conflicts } = renderRegions(regions);
    expect(conflicts).toBe(2);
    expect(text).toBe(
      'start\n<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\nmiddle\n<<<<<<< ours\r\no2\r\n=======\r\nt2\r\n>>>>>>> theirs\r\n',
    );
  });

  it('applies each kind of resolution to its conflict only', () => {
    const cases: [ConflictResolution, string][] = [
      [{ kind: 'ours' }, 'start\nours'],
      [{ kind: 'theirs' }, 'start\ntheirs\n'],
      [{ kind: 'base' }, 'start\nbase\n'],
      [{ kind: 'both' }, 'start\nours\ntheirs\n'],
      [{ kind: 'edit', lines: ['mine\n'] }, 'start\nmine\n'],
    ];
    for (const [resolution, prefix] of cases) {
      const { text, conflicts } = renderRegions(regions, [resolution]);
      expect(conflicts).toBe(1);
      expect(text.startsWith(`${prefix}middle\n<<<<<<< ours\r\n`)).toBe(true);
    }
  });

  it('leaves no markers once every conflict is resolved', () => {
    expect(renderRegions(regions, [{ kind: 'theirs' }, { kind: 'ours' }])).toEqual({ text: 'start\ntheirs\nmiddle\no2\r\n', conflicts: 0 });
  });

  it('renders like git --ours/--theirs/--union when every conflict is resolved that way', () => {
    const favors = [
      ['ours', 'ours'],
      ['theirs', 'theirs'],
      ['union', 'both'],
    ] as const;
    for (const triple of generatedTriples(150, 3)) {
      const merged = mergeText(triple.base, triple.ours, triple.theirs);
      expect(renderRegions(merged.regions).text).toBe(merged.text);
      for (const [favor, kind] of favors) {
        const all = Array.from({ length: merged.conflicts }, () => ({ kind }));
        expect(renderRegions(merged.regions, all).text, `${triple.name} ${favor}`).toBe(
          mergeText(triple.base, triple.ours, triple.theirs, { favor }).text,
        );
      }
    }
  });
});
