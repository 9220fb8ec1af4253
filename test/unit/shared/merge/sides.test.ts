import { describe, expect, it } from 'vitest';
import { LineText } from '../../../../shared/merge/lines';
import { internSides, sharedEdges } from '../../../../shared/merge/sides';
import { mulberry32 } from '../../../../shared/random';

const edges = (base: string, ours: string, theirs: string): { start: number; end: number } =>
  sharedEdges(new LineText(base), new LineText(ours), new LineText(theirs));

describe('sharedEdges', () => {
  it('counts the whole lines all three versions start and end with', () => {
    expect(edges('a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nC\nd\n')).toEqual({ start: 1, end: 1 });
    expect(edges('a\nb\n', 'a\nb\n', 'a\nb\n')).toEqual({ start: 2, end: 0 });
    expect(edges('', 'x\n', '')).toEqual({ start: 0, end: 0 });
  });

  it('never counts a line that is whole in one version and longer in another', () => {
    // "a" ends the base but is the start of "a\n" in ours; "b" ends ours but "xb" is theirs' line.
    expect(edges('a', 'a\nb', 'a')).toEqual({ start: 0, end: 0 });
    expect(edges('q\nb', 'r\nb', 'xb')).toEqual({ start: 0, end: 0 });
    expect(edges('q\nb', 'r\nb', 's\nb')).toEqual({ start: 0, end: 1 });
    // The "\n" before a shared last line must be shared too, or the line might start elsewhere.
    expect(edges('same\nend', 'same\nmid\nend', 'same\nend')).toEqual({ start: 1, end: 0 });
    expect(edges('same\nx\nend', 'same\nmid\nx\nend', 'same\nx\nend')).toEqual({ start: 1, end: 1 });
  });

  it('does not let the shared start and end overlap when one side only adds lines', () => {
    expect(edges('a\na\n', 'a\na\na\n', 'a\na\n')).toEqual({ start: 2, end: 0 });
  });
});

describe('internSides', () => {
  it('gives two lines the same id exactly when their texts are equal, on edited code-like files', () => {
    const random = mulberry32(7);
    const vocabulary = ['}\n', '\n', '  return x;\n', '  }\n', 'else {\n', '\r\n', 'x'];
    const line = (): string => (random() < 0.7 ? (vocabulary[Math.floor(random() * 6)] as string) : `  f(${Math.floor(random() * 50)});\n`);
    for (let round = 0; round < 40; round++) {
      const base = Array.from({ length: 200 + Math.floor(random() * 200) }, line);
      const edit = (lines: string[]): string[] => {
        const out = [...lines];
        for (let e = 0; e < 1 + Math.floor(random() * 8); e++) {
          const at = Math.floor(random() * out.length);
          out.splice(at, Math.floor(random() * 20), ...Array.from({ length: Math.floor(random() * 5) }, line));
        }
        return out;
      };
      const texts = [base, edit(base), edit(base)].map((lines) => lines.join('') + (random() < 0.3 ? 'tail' : '')) as [string, string, string];
      const sides = internSides(...texts);
      const all = [
        ...sides.base.lines(0).map((text, i) => ({ text, id: sides.baseIds[i] })),
        ...sides.ours.lines(0).map((text, i) => ({ text, id: sides.oursIds[i] })),
        ...sides.theirs.lines(0).map((text, i) => ({ text, id: sides.theirsIds[i] })),
      ];
      const idOfText = new Map<string, number | undefined>();
      const textOfId = new Map<number | undefined, string>();
      const wrong: string[] = [];
      for (const { text, id } of all) {
        if (!idOfText.has(text)) idOfText.set(text, id);
        if (!textOfId.has(id)) textOfId.set(id, text);
        if (idOfText.get(text) !== id || textOfId.get(id) !== text) wrong.push(`${JSON.stringify(text)} → ${id}`);
      }
      expect(wrong).toEqual([]);
      expect(sides.classes).toBe(idOfText.size);
    }
  });
});
