import { describe, expect, it } from 'vitest';
import { UNKNOWN_CONTENT, readFileEdit, replaceInText, toolEffect, isReadOnlyCommand } from '../../../../electron/snapshots/reconstruct';

const call = (name: string, input: unknown = {}) => ({ id: 'toolu_1', name, input });
const hunk = (oldStart: number, oldLines: number, newStart: number, newLines: number, lines: string[]) => ({ oldStart, oldLines, newStart, newLines, lines });

describe('readFileEdit', () => {
  it('reads an Edit with originalFile: exact before, after from the hunks', () => {
    const edit = readFileEdit(call('Edit'), {
      filePath: '/w/a.ts', oldString: 'b', newString: 'B', originalFile: 'a\nb\nc\n', replaceAll: false, userModified: false,
      structuredPatch: [hunk(1, 3, 1, 3, [' a', '-b', '+B', ' c'])],
    }, false);
    expect(edit).toMatchObject({ tool: 'Edit', path: '/w/a.ts', before: 'a\nb\nc\n', after: 'a\nB\nc\n', source: 'originalFile' });
  });

  it('falls back to the old/new strings when the hunks do not fit', () => {
    const edit = readFileEdit(call('Edit'), { filePath: '/w/a.ts', oldString: 'x', newString: 'y', originalFile: 'x x', replaceAll: true, structuredPatch: [hunk(9, 1, 9, 1, ['-nope', '+no'])] }, false);
    expect(edit?.after).toBe('y y');
  });

  it('reads a MultiEdit with originalFileContents', () => {
    const edit = readFileEdit(call('MultiEdit'), {
      filePath: '/w/m.py', originalFileContents: 'one\ntwo\n',
      edits: [{ old_string: 'one', new_string: '1', replace_all: false }, { old_string: 'two', new_string: '2', replace_all: false }],
      structuredPatch: [hunk(1, 2, 1, 2, ['-one', '-two', '+1', '+2'])], userModified: false,
    }, false);
    expect(edit).toMatchObject({ tool: 'MultiEdit', before: 'one\ntwo\n', after: '1\n2\n', source: 'originalFileContents' });
  });

  it('reads Write create (new and old versions) as a file that did not exist', () => {
    expect(readFileEdit(call('Write'), { type: 'create', filePath: '/w/n.md', content: 'hi\n', structuredPatch: [], originalFile: null }, false))
      .toMatchObject({ before: null, after: 'hi\n', source: 'create' });
    expect(readFileEdit(call('Write'), { type: 'create', filePath: '/w/n.md', content: 'hi\n', structuredPatch: [] }, false))
      .toMatchObject({ before: null, after: 'hi\n', source: 'create' });
  });

  it('rebuilds an old Write update without originalFile by reverse-applying its hunks', () => {
    const edit = readFileEdit(call('Write'), {
      type: 'update', filePath: '/w/README.md', content: '# Title\n\nBody\n',
      structuredPatch: [hunk(1, 1, 1, 3, ['-# title', '\\ No newline at end of file', '+# Title', '+', '+Body'])],
    }, false);
    expect(edit).toMatchObject({ before: '# title', after: '# Title\n\nBody\n', source: 'reverse-patch' });
  });

  it('keeps Write update with originalFile exact', () => {
    expect(readFileEdit(call('Write'), { type: 'update', filePath: '/w/x', content: 'new', originalFile: 'old', structuredPatch: [] }, false))
      .toMatchObject({ before: 'old', after: 'new', source: 'originalFile' });
  });

  it('marks an Edit without originalFile as unknown but keeps its patch for the caller', () => {
    const edit = readFileEdit(call('Edit'), { filePath: '/w/a', oldString: 'a', newString: 'b', structuredPatch: [hunk(1, 1, 1, 1, ['-a', '+b'])] }, false);
    expect(edit?.before).toBe(UNKNOWN_CONTENT);
    expect(edit?.after).toBe(UNKNOWN_CONTENT);
    expect(edit?.patch).toHaveLength(1);
  });

  it('gives nothing for rejected or failed edits and for other tools', () => {
    expect(readFileEdit(call('Edit'), "Error: The user doesn't want to proceed with this tool use.", true)).toBeNull();
    expect(readFileEdit(call('Edit'), 'Error: String to replace not found in file.', false)).toBeNull();
    expect(readFileEdit(call('Write'), { type: 'create', filePath: '/w/x', content: 'x', structuredPatch: [] }, true)).toBeNull();
    expect(readFileEdit(call('Read'), { type: 'text', file: { filePath: '/w/x', content: 'x' } }, false)).toBeNull();
  });

  it('reads NotebookEdit only when the result carries both files', () => {
    expect(readFileEdit(call('NotebookEdit', { notebook_path: '/w/n.ipynb' }), { original_file: '{}', updated_file: '{"a":1}' }, false))
      .toMatchObject({ path: '/w/n.ipynb', before: '{}', after: '{"a":1}', source: 'notebook' });
    expect(readFileEdit(call('NotebookEdit', { notebook_path: '/w/n.ipynb' }), { new_source: 'x' }, false)?.after).toBe(UNKNOWN_CONTENT);
  });
});

describe('replaceInText', () => {
  it('replaces like the Edit tool, taking a deleted line with its newline', () => {
    expect(replaceInText('a b a', { oldString: 'a', newString: 'c', replaceAll: false })).toBe('c b a');
    expect(replaceInText('a b a', { oldString: 'a', newString: '$&', replaceAll: true })).toBe('$& b $&');
    expect(replaceInText('x\n  drop me\ny\n', { oldString: '  drop me', newString: '', replaceAll: false })).toBe('x\ny\n');
    expect(replaceInText('abc', { oldString: 'z', newString: '', replaceAll: false })).toBeNull();
  });
});

describe('toolEffect / isReadOnlyCommand', () => {
  it('classifies tools', () => {
    expect(toolEffect('Read', {})).toBe('none');
    expect(toolEffect('Edit', {})).toBe('file-edit');
    expect(toolEffect('Task', {})).toBe('subagent');
    expect(toolEffect('mcp__fs__write_file', {})).toBe('may-write');
    expect(toolEffect('Bash', { command: 'git status' })).toBe('none');
    expect(toolEffect('Bash', { command: 'npm test' })).toBe('may-write');
    expect(toolEffect('Bash', {})).toBe('may-write');
  });

  it.each([
    'ls -la src', 'cat a.txt | grep -n foo | head -5', 'git diff HEAD~1 -- src', 'git log --oneline -5', 'git -C repo status',
    'find . -name "*.ts" | wc -l', 'grep -r "a > b" src 2>/dev/null', 'cd src && ls', 'sed -n 1,20p file', 'git branch -a',
    'echo "rm -rf /" ; pwd', 'FOO=1 ls', 'cat file 2>&1 | tail',
  ])('keeps %j read-only', (command) => expect(isReadOnlyCommand(command)).toBe(true));

  it.each([
    'npm run build', 'echo hi > out.txt', 'cat a >> b', 'rm -rf dist', 'sed -i s/a/b/ file', 'find . -delete', 'git commit -m x',
    'git checkout main', 'git stash', 'ls $(touch x)', 'ls `touch x`', 'python3 script.py', 'cd src && make', 'ls | xargs rm',
    'sort -o out in', 'git branch new-branch', '(cd x; ls)', 'git diff --output=patch.txt', 'echo &> log', 'unterminated "quote',
  ])('treats %j as possibly writing', (command) => expect(isReadOnlyCommand(command)).toBe(false));
});
