import { describe, expect, it } from 'vitest';
import { callSubject, editPairs, errorText, lineDiff, readResultCode, relativeTo } from '../../../../renderer/src/conversation/tool-call-text';

const marks = (before: string, after: string) => lineDiff(before, after).map((line) => `${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}${line.text}`);

describe('lineDiff', () => {
  it('keeps common lines, and puts removed lines before added ones within a change', () => {
    expect(marks('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([' a', '-b', '+B', ' c', '+d']);
    expect(marks('same', 'same')).toEqual([' same']);
    expect(marks('', 'new')).toEqual(['-', '+new']);
  });

  it('shows a large change as removed then added lines without the quadratic walk', () => {
    const before = Array.from({ length: 2000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 2000 }, (_, i) => `new ${i}`).join('\n');
    const lines = lineDiff(`head\n${before}\ntail`, `head\n${after}\ntail`);
    expect(lines).toHaveLength(4002);
    expect(lines[0]).toEqual({ kind: 'same', text: 'head' });
    expect(lines[1]).toEqual({ kind: 'removed', text: 'old 0' });
    expect(lines[2001]).toEqual({ kind: 'added', text: 'new 0' });
    expect(lines.at(-1)).toEqual({ kind: 'same', text: 'tail' });
  });
});

describe('errorText', () => {
  it('unwraps <tool_use_error> and leaves any other text, markup included, as it is', () => {
    expect(errorText('<tool_use_error>String to replace not found in file.</tool_use_error>')).toBe('String to replace not found in file.');
    expect(errorText('Exit code 1\n<b>boom</b>')).toBe('Exit code 1\n<b>boom</b>');
  });
});

describe('call subjects', () => {
  it('names the file, the command description or the pattern, relative to the working directory', () => {
    expect(callSubject('Bash', { command: 'npm test\nmore', description: 'Run the tests' })).toBe('Run the tests');
    expect(callSubject('Bash', { command: 'npm test\nmore' })).toBe('npm test');
    expect(callSubject('Read', { file_path: '/repo/src/a.ts' })).toBe('/repo/src/a.ts');
    expect(callSubject('Grep', { pattern: 'TODO' })).toBe('TODO');
    expect(callSubject('Other', 'not an object')).toBe('');
    expect(relativeTo('/repo', '/repo/src/a.ts')).toBe('src/a.ts');
    expect(relativeTo('/repo', '/repository/a.ts')).toBe('/repository/a.ts');
    expect(relativeTo('C:\\repo', 'C:\\repo\\a.ts')).toBe('a.ts');
    expect(relativeTo(null, '/repo/a.ts')).toBe('/repo/a.ts');
  });

  it('reads Edit and MultiEdit inputs as before/after pairs', () => {
    expect(editPairs('Edit', { old_string: 'a', new_string: 'b' })).toEqual([{ before: 'a', after: 'b' }]);
    expect(editPairs('MultiEdit', { edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 1 }] })).toEqual([{ before: 'a', after: 'b' }]);
    expect(editPairs('Write', { content: 'x' })).toEqual([]);
  });

  it('takes the code out of a numbered Read result', () => {
    expect(readResultCode('     1→const a = 1;\n     2→\tindented\n\n<system-reminder>x</system-reminder>')).toEqual({ code: 'const a = 1;\n\tindented', firstLine: 1 });
    expect(readResultCode('    10\tx')).toEqual({ code: 'x', firstLine: 10 });
    expect(readResultCode('File does not exist.')).toBeNull();
  });
});
