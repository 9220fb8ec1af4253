import { describe, expect, it } from 'vitest';
import { parseApplyPatch, patchInCommand } from '../../../../../electron/importers/codex/apply-patch';
import { readCodexCalls } from '../../../../../electron/importers/codex/file-effects';

describe('parseApplyPatch', () => {
  it('reads Add, Delete, and Update with a move, a context header and End of File', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: a.txt',
      '+one',
      '+two',
      '*** Delete File: old.txt',
      '*** Update File: src/b.py',
      '*** Move to: src/c.py',
      '@@ def f():',
      '-    return 1',
      '+    return 2',
      '',
      '@@',
      ' last',
      '+after',
      '*** End of File',
      '*** End Patch',
    ].join('\n');
    expect(parseApplyPatch(patch)).toEqual([
      { kind: 'add', path: 'a.txt', content: 'one\ntwo\n' },
      { kind: 'delete', path: 'old.txt' },
      {
        kind: 'update',
        path: 'src/b.py',
        moveTo: 'src/c.py',
        hunks: [
          { context: 'def f():', oldLines: ['    return 1', ''], newLines: ['    return 2', ''], endOfFile: false },
          { context: null, oldLines: ['last'], newLines: ['last', 'after'], endOfFile: true },
        ],
      },
    ]);
  });

  it('reads an update whose first hunk has no @@ header, and drops a heredoc wrapper', () => {
    expect(parseApplyPatch("<<'EOF'\n*** Begin Patch\n*** Update File: x\n-a\n+b\n*** End Patch\nEOF\n")).toEqual([
      { kind: 'update', path: 'x', moveTo: null, hunks: [{ context: null, oldLines: ['a'], newLines: ['b'], endOfFile: false }] },
    ]);
  });

  it('gives null for a text that is not a whole envelope or has an empty update', () => {
    expect(parseApplyPatch('*** Begin Patch\n*** Add File: a\n+x\n')).toBeNull();
    expect(parseApplyPatch('*** Begin Patch\n*** Update File: a\n*** End Patch')).toBeNull();
    expect(parseApplyPatch('*** Begin Patch\n*** Frobnicate File: a\n*** End Patch')).toBeNull();
  });
});

describe('apply_patch in shell calls', () => {
  it('finds the envelope in a heredoc after cd, and not in a command that only prints one', () => {
    expect(patchInCommand("cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF")).toEqual({ patch: '*** Begin Patch\n*** Delete File: a\n*** End Patch', cd: 'sub' });
    expect(patchInCommand("cat <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF")).toBeNull();
  });

  it('reads the argv forms of the shell tool: ["apply_patch", patch] and ["bash", "-lc", "apply_patch <<EOF …"]', () => {
    const patch = '*** Begin Patch\n*** Delete File: a\n*** End Patch';
    const argv = JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c1', arguments: JSON.stringify({ command: ['apply_patch', patch], workdir: '/w' }) } });
    const bash = JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c2', arguments: JSON.stringify({ command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] }) } });
    expect(readCodexCalls(argv).map((call) => [call.name, call.workdir, call.changes])).toEqual([['apply_patch', '/w', [{ kind: 'delete', path: 'a' }]]]);
    expect(readCodexCalls(bash).map((call) => [call.name, call.command, call.changes])).toEqual([['apply_patch', null, [{ kind: 'delete', path: 'a' }]]]);
  });

  it('keeps the command line of any other shell call, argv joined or a bash -lc script', () => {
    const line = JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c3', arguments: JSON.stringify({ command: ['bash', '-lc', 'sed -n 1,20p a.txt'] }) } });
    expect(readCodexCalls(line).map((call) => call.command)).toEqual(['sed -n 1,20p a.txt']);
    const local = JSON.stringify({ type: 'response_item', payload: { type: 'local_shell_call', call_id: 'c4', action: { type: 'exec', command: ['rm', '-rf', 'build dir'] } } });
    expect(readCodexCalls(local).map((call) => call.command)).toEqual(["rm -rf 'build dir'"]);
  });
});
