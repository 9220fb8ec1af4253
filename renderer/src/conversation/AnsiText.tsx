/**
 * Terminal output with its ANSI colours as spans (anser parses; React renders text nodes, never HTML),
 * so a Bash result reads as it did in the terminal instead of showing escape codes.
 */
import Anser from 'anser';
import { memo, type CSSProperties } from 'react';

export interface AnsiSpan {
  readonly text: string;
  readonly className: string;
  readonly style: CSSProperties | null;
}

/** The 16 named colours get classes (themed in conversation.css); 256-colour and true colour are inline. */
const NAMED = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;
const PALETTE = /^ansi-palette-(\d+)$/;

/** The xterm 256-colour palette entry (16–255: the 6×6×6 cube, then greys); 0–15 map to the named colours. */
export function paletteColor(index: number): string | null {
  if (index < 16 || index > 255) return null;
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = index - 16;
  const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

function colour(value: string | null, truecolor: string | null, side: 'fg' | 'bg'): { className: string | null; css: string | null } {
  if (!value) return { className: null, css: null };
  if (NAMED.test(value)) return { className: `${value}-${side}`, css: null };
  if (value === 'ansi-truecolor' && truecolor) return { className: null, css: `rgb(${truecolor})` };
  const palette = PALETTE.exec(value);
  if (palette) {
    const index = Number(palette[1]);
    if (index < 16) return { className: `ansi-${index >= 8 ? 'bright-' : ''}${NAMES[index % 8]}-${side}`, css: null };
    return { className: null, css: paletteColor(index) };
  }
  return { className: null, css: null };
}

/** Splits `text` into styled spans; codes anser does not draw (cursor moves) are dropped. */
export function ansiSpans(text: string): AnsiSpan[] {
  if (!text.includes('\u001b')) return [{ text, className: '', style: null }];
  const entries = Anser.ansiToJson(text, { use_classes: true, remove_empty: true });
  return entries.map((entry) => {
    const classes: string[] = [];
    let style: CSSProperties | null = null;
    const fg = colour(entry.fg, entry.fg_truecolor, 'fg');
    const bg = colour(entry.bg, entry.bg_truecolor, 'bg');
    if (fg.className) classes.push(fg.className);
    if (bg.className) classes.push(bg.className);
    if (fg.css) style = { color: fg.css };
    if (bg.css) style = { ...style, backgroundColor: bg.css };
    for (const decoration of entry.decorations) classes.push(`ansi-${decoration}`);
    return { text: entry.content, className: classes.join(' '), style };
  });
}

export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  return (
    <>
      {ansiSpans(text).map((span, i) =>
        span.className === '' && span.style === null ? (
          span.text
        ) : (
          <span key={i} className={span.className} style={span.style ?? undefined}>
            {span.text}
          </span>
        ),
      )}
    </>
  );
});
