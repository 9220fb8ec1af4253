import { describe, expect, it } from 'vitest';
import { base64Bytes, clip, firstLine, isBlank, SearchText } from '../../../../../electron/importers/claude-code/label-text';
import { shortPath, toolCallLabel, toolResultLabel } from '../../../../../electron/importers/claude-code/tool-labels';

describe('label text', () => {
  it('clips with an ellipsis without splitting a surrogate pair', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcd', 3)).toBe('ab…');
    expect(clip('a🌳b', 3)).toBe('a…'); // cutting after the high surrogate would leave half a tree
  });

  it('takes the first non-blank line, collapsing whitespace and colour codes', () => {
    expect(firstLine('\n\n  hello   world\t!\nsecond')).toBe('hello world !');
    expect(firstLine('Running \u001b[1mPostToolUse:Write\u001b[22m...')).toBe('Running PostToolUse:Write...');
    expect(firstLine('x'.repeat(500))).toHaveLength(120);
    expect(firstLine('')).toBe('');
  });

  it('detects blank text and sizes base64 without decoding', () => {
    expect(isBlank(' \n\t')).toBe(true);
    expect(isBlank('  x')).toBe(false);
    expect(base64Bytes(Buffer.from('hello!').toString('base64'))).toBe(6);
    expect(base64Bytes(Buffer.from('hello').toString('base64'))).toBe(5);
  });

  it('bounds search text and indexes only the values of tool inputs', () => {
    const search = new SearchText();
    search.addValues({ file_path: '/a.ts', edits: [{ old_string: 'x', replace_all: false }], count: 3 });
    expect(search.toString()).toBe('/a.ts\nx\nfalse\n3');
    const big = new SearchText();
    for (let i = 0; i < 10; i += 1) big.add('z'.repeat(10_000));
    expect(big.full).toBe(true);
    expect(big.toString().length).toBeLessThanOrEqual(32 * 1024);
  });
});

describe('tool labels', () => {
  it.each([
    ['Edit', { file_path: '/repo/src/a.ts' }, 'Edit src/a.ts'],
    ['Write', { file_path: '/other/b.ts' }, 'Write /other/b.ts'],
    ['NotebookEdit', { notebook_path: '/repo/n.ipynb' }, 'NotebookEdit n.ipynb'],
    ['Bash', { command: 'npm test\nnpm run lint' }, 'Bash: npm test'],
    ['Grep', { pattern: 'TODO', path: '/repo/src' }, 'Grep "TODO" in src'],
    ['Glob', { pattern: '**/*.ts' }, 'Glob **/*.ts'],
    ['Task', { description: 'Find callers', subagent_type: 'Explore', prompt: 'long' }, 'Task (Explore): Find callers'],
    ['Agent', { prompt: 'Review the diff\nthoroughly' }, 'Agent: Review the diff'],
    ['WebFetch', { url: 'https://example.com' }, 'WebFetch https://example.com'],
    ['WebSearch', { query: 'vitest' }, 'WebSearch "vitest"'],
    ['TodoWrite', { todos: [1, 2] }, 'TodoWrite (2 todos)'],
    ['mcp__db__query', { sql: 'select 1' }, 'mcp__db__query: select 1'],
    ['ExitPlanMode', {}, 'ExitPlanMode'],
  ])('%s %j', (name, input, label) => {
    expect(toolCallLabel(name, input, '/repo')).toBe(label);
  });

  it('labels results with a mark, the tool and the first line of output or error', () => {
    expect(toolResultLabel('Bash', '\n3 passed\n', false, 0)).toBe('✓ Bash — 3 passed');
    expect(toolResultLabel('Edit', '<tool_use_error>String to replace not found in file.</tool_use_error>', true, 0)).toBe(
      '✗ Edit — String to replace not found in file.',
    );
    expect(toolResultLabel('Write', 'Error: EACCES', true, 1)).toBe('✗ Write (+1) — EACCES');
    expect(toolResultLabel(null, '', false, 0)).toBe('✓ tool result');
  });

  it('shortens paths only inside the cwd', () => {
    expect(shortPath('/repo/a.ts', '/repo')).toBe('a.ts');
    expect(shortPath('/repository/a.ts', '/repo')).toBe('/repository/a.ts');
    expect(shortPath('C:\\repo\\a.ts', 'C:\\repo')).toBe('a.ts');
    expect(shortPath('/repo/a.ts', null)).toBe('/repo/a.ts');
  });
});
