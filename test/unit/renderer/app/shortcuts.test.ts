import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHORTCUT_AREAS, SHORTCUTS, shortcutsMarkdown } from '../../../../renderer/src/app/shortcuts';

const README = resolve(__dirname, '../../../../README.md');

describe('the shortcut table', () => {
  it('is the README\'s "Keyboard shortcuts" list, word for word', () => {
    const readme = readFileSync(README, 'utf8');
    const listed = /<!-- shortcuts:start -->\n([\s\S]*?)\n<!-- shortcuts:end -->/.exec(readme);
    expect(listed, 'README.md has a <!-- shortcuts:start --> … <!-- shortcuts:end --> block').not.toBeNull();
    expect(listed![1]).toBe(shortcutsMarkdown());
  });

  it('names the conversation keys, the graph keys and the palette, each once per area', () => {
    const keys = (area: string) => SHORTCUTS.filter((s) => s.area === area).map((s) => s.keys);
    expect(keys('Conversation')).toEqual(expect.arrayContaining(['j / k', 'n / p', '[ / ]', 'Enter', 'c']));
    expect(keys('Session graph')).toEqual(expect.arrayContaining(['r', 'Shift F', 'm', 'f', 'b / Shift B']));
    expect(keys('Anywhere')).toEqual(expect.arrayContaining(['Ctrl/⌘ K', '?', '/']));
    for (const area of SHORTCUT_AREAS) expect(new Set(keys(area)).size).toBe(keys(area).length);
  });

  it('escapes a | in keys so a README table row stays one row', () => {
    expect(shortcutsMarkdown([{ keys: 'a | b', does: 'x', area: 'Anywhere' }])).toContain('| a \\| b | x |');
  });
});
