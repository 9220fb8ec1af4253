import { describe, expect, it } from 'vitest';
import { ASCII_FROM_CHARS, wireText } from '../../../../electron/host/wire-text';
import type { ServerMessage } from '../../../../shared/wire';

describe('wireText', () => {
  it('sends a large message as pure ASCII that parses back to the same value', () => {
    const labels = ['fix the “bug” — ✓', 'tree 🌳 and é', 'plain', '\u2028 line separator', 'ascii "quotes" \\ backslash'];
    const filler = 'x'.repeat(ASCII_FROM_CHARS);
    const message: ServerMessage = { t: 'res', id: 7, ok: true, result: { labels, filler } };
    const text = wireText(message);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(text).toContain('\\u201c');
    expect(JSON.parse(text)).toEqual(message);
  });

  it('leaves a small message as JSON.stringify wrote it', () => {
    const message: ServerMessage = { t: 'res', id: 1, ok: true, result: { title: 'café ✓' } };
    expect(wireText(message)).toBe(JSON.stringify(message));
  });
});
