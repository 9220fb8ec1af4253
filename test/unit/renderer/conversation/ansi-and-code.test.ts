import { describe, expect, it } from 'vitest';
import { ansiSpans, paletteColor } from '../../../../renderer/src/conversation/AnsiText';
import { languageOf, tokenize } from '../../../../renderer/src/conversation/code-tokens';

describe('ansiSpans', () => {
  it('turns colour codes into classes and inline colours, never leaving an escape code in the text', () => {
    const spans = ansiSpans('ok \u001b[32mgreen\u001b[0m \u001b[1;31mbold red\u001b[0m \u001b[38;5;208mpalette\u001b[0m \u001b[38;2;1;2;3mtrue\u001b[0m \u001b[2Kgone');
    expect(spans.map((s) => s.text).join('')).not.toContain('\u001b');
    expect(spans.find((s) => s.text === 'green')?.className).toBe('ansi-green-fg');
    expect(spans.find((s) => s.text === 'bold red')?.className).toBe('ansi-red-fg ansi-bold');
    expect(spans.find((s) => s.text === 'palette')?.style).toEqual({ color: paletteColor(208) });
    expect(spans.find((s) => s.text === 'true')?.style).toEqual({ color: 'rgb(1, 2, 3)' });
    expect(spans.map((s) => s.text).join('')).toContain('gone');
  });

  it('leaves plain text as one unstyled span', () => {
    expect(ansiSpans('plain <b>text</b>')).toEqual([{ text: 'plain <b>text</b>', className: '', style: null }]);
  });

  it('maps the 256-colour palette: cube and greys', () => {
    expect(paletteColor(16)).toBe('rgb(0, 0, 0)');
    expect(paletteColor(196)).toBe('rgb(255, 0, 0)');
    expect(paletteColor(232)).toBe('rgb(8, 8, 8)');
    expect(paletteColor(3)).toBeNull();
  });
});

describe('tokenize', () => {
  it('marks keywords, strings, numbers and comments by the file extension', () => {
    const tokens = tokenize("const x = 'a'; // note\nreturn 42;", languageOf('src/a.ts'));
    const of = (kind: string) => tokens.filter((t) => t.kind === kind).map((t) => t.text);
    expect(of('keyword')).toEqual(['const', 'return']);
    expect(of('string')).toEqual(["'a'"]);
    expect(of('comment')).toEqual(['// note']);
    expect(of('number')).toEqual(['42']);
    expect(tokens.map((t) => t.text).join('')).toBe("const x = 'a'; // note\nreturn 42;");
  });

  it('shows unknown languages and huge texts plain', () => {
    expect(tokenize('const x', languageOf('README.md'))).toEqual([{ kind: 'plain', text: 'const x' }]);
    expect(tokenize('x'.repeat(200_000), languageOf('a.ts'))).toHaveLength(1);
    expect(tokenize('# comment\nx=1', languageOf('a.py')).map((t) => t.kind)).toEqual(['comment', 'plain', 'number']);
  });
});
