/**
 * Regression tests for the transcript shapes that made reconstructed states wrong on real sessions (issue
 * 10): each is named after what broke, and each checks both the content and whether it is said to be known.
 */
import { describe, expect, it } from 'vitest';
import { displayHunks, structuredPatch } from '../../../../electron/demo/structured-patch';
import { UNKNOWN_CONTENT } from '../../../../electron/snapshots/reconstruct';
import { Session } from './session-builder';

const A = '/w/a.go';
const B = '/w/b.txt';

describe('display-only hunks on a tab-indented file', () => {
  const before = 'package main\n\nfunc main() {\n\tprintln("a")\n}\n';
  const after = 'package main\n\nfunc main() {\n\tprintln("a")\n\tprintln("b")\n}\n';

  it('replays the edit from its strings where the display hunks do not apply', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const r1 = s.tool('e', p, 'Edit', { file_path: A }, { value: Session.editResult(A, before, after, '\tprintln("a")\n}', '\tprintln("a")\n\tprintln("b")\n}', displayHunks(structuredPatch(before, after))) });
    const r = await s.reconstruct();
    expect(r.stateAt(r1).files.get(A)).toBe(after);
    expect(r.stateAt(r1).known).toBe('reconstructed');
  });

  it('uses the strings even where display hunks apply and disagree', async () => {
    const file = 'a\nb\nc\nd\n\tdeep\n';
    const edited = 'a\n\tnew\nb\nc\nd\n\tdeep\n';
    const hunks = displayHunks(structuredPatch(file, edited));
    expect(hunks[0]!.lines).toContain('+  new'); // what the transcript shows, and what a hunk replay would write
    const s = new Session();
    const p = s.prompt('p', null);
    const r1 = s.tool('e', p, 'Edit', { file_path: A }, { value: Session.editResult(A, file, edited, 'a\n', 'a\n\tnew\n', hunks) });
    const r = await s.reconstruct();
    expect(r.stateAt(r1).files.get(A)).toBe(edited);
  });

  it('says unknown when the strings do not apply to the pre-state, whatever the hunks say', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const r1 = s.tool('e', p, 'Edit', { file_path: A }, { value: Session.editResult(A, 'one\n', 'two\n', 'absent', 'two') });
    const next = s.prompt('next', r1);
    const r = await s.reconstruct();
    expect(r.editsAt(r1)[0]?.after).toBe(UNKNOWN_CONTENT);
    expect(r.stateAt(next).unknownFiles).toEqual([A]);
    expect(r.stateAt(next).fileUnknownSince.get(A)).toEqual({ nodeId: r1, reason: 'edit-does-not-apply' });
    expect(r.stateAt(next).known).toBe('unknown');
  });

  it('does not rebuild an old Write of a tab-indented file from display hunks', async () => {
    const old = 'a\n\tx\nb\n1\n2\n3\n4\n\tc\n';
    const content = 'a\nb\n1\n2\n3\n4\n\tc\n';
    const hunks = displayHunks(structuredPatch(old, content));
    expect(hunks[0]!.lines).toContain('-  x'); // undone, it would put spaces where the file had a tab
    const s = new Session();
    const p = s.prompt('p', null);
    const w = s.tool('w', p, 'Write', { file_path: A, content }, { value: { type: 'update', filePath: A, content, structuredPatch: hunks } });
    const r = await s.reconstruct();
    expect(r.editsAt(w)[0]?.before).toBe(UNKNOWN_CONTENT);
    expect(r.stateAt(w).files.get(A)).toBe(content);
    expect(r.stateAt(p).unknownFiles).toEqual([A]);
  });
});

describe('three parallel edits', () => {
  /** a1→a2→a3 each carry one Edit; r_k hangs on a_k; hook lines in between; the turn continues from `from`. */
  async function parallel(order: readonly number[], from: number) {
    const s = new Session();
    const p = s.prompt('p', null);
    const files = ['/w/1.txt', '/w/2.txt', '/w/3.txt'];
    const ids: string[] = [];
    let parent = p;
    for (let k = 0; k < 3; k++) {
      ids.push(s.call(`a${k}`, parent, 'Edit', { file_path: files[k] }));
      parent = `a${k}`;
    }
    s.progress('hook-a', 'a2');
    let last = 'hook-a';
    for (const k of order) {
      s.progress(`hook${k}`, last);
      last = s.result(`r${k}`, `a${k}`, ids[k]!, Session.editResult(files[k]!, `${k}\n`, `${k}!\n`, `${k}`, `${k}!`));
    }
    const next = s.prompt('next', `r${from}`);
    const r = await s.reconstruct();
    return { r, next, files };
  }

  it('brings every result to the continuation when the results arrive in call order', async () => {
    const { r, next, files } = await parallel([0, 1, 2], 2);
    for (const [k, file] of files.entries()) expect(r.stateAt(next).files.get(file), file).toBe(`${k}!\n`);
    expect(r.stateAt(next).known).toBe('reconstructed');
    expect(r.problems).toEqual([]);
  });

  it.each([
    [[2, 0, 1], 1],
    [[1, 2, 0], 0],
    [[0, 2, 1], 1],
  ])('brings every result to the continuation when they arrive in the order %j', async (order, from) => {
    const { r, next, files } = await parallel(order, from);
    for (const [k, file] of files.entries()) expect(r.stateAt(next).files.get(file), file).toBe(`${k}!\n`);
  });

  it('brings every result to the continuation when the calls are threaded through progress lines (2.1.3x)', async () => {
    const s = new Session();
    let parent = s.prompt('p', null);
    const ids: string[] = [];
    for (let k = 0; k < 3; k++) {
      ids.push(s.call(`a${k}`, parent, 'Edit', { file_path: `/w/${k}` }));
      parent = s.progress(`hook${k}`, `a${k}`);
    }
    // The first call's result arrives last and the turn goes on from it.
    for (const k of [1, 2, 0]) s.result(`r${k}`, `a${k}`, ids[k]!, Session.editResult(`/w/${k}`, 'x\n', `${k}\n`, 'x', `${k}`));
    const next = s.prompt('next', 'r0');
    const r = await s.reconstruct();
    for (let k = 0; k < 3; k++) expect(r.stateAt(next).files.get(`/w/${k}`)).toBe(`${k}\n`);
  });

  it('brings five parallel results to the continuation', async () => {
    const s = new Session();
    let parent = s.prompt('p', null);
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) {
      ids.push(s.call(`a${k}`, parent, 'Edit', { file_path: `/w/${k}` }));
      parent = `a${k}`;
    }
    for (let k = 0; k < 5; k++) s.result(`r${k}`, `a${k}`, ids[k]!, Session.editResult(`/w/${k}`, 'x\n', `${k}\n`, 'x', `${k}`));
    const next = s.prompt('next', 'r4');
    const r = await s.reconstruct();
    expect([...r.stateAt(next).files.values()]).toEqual(['0\n', '1\n', '2\n', '3\n', '4\n']);
  });
});

describe('a root in the middle of a file', () => {
  it.each(['user', 'compaction'] as const)('keeps the workspace of the line before it (%s root)', async (kind) => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e = s.edit('e', p, A, 'a\n', 'b\n', 'a', 'b');
    const root = s.root('root', kind);
    const after = s.prompt('after', root);
    const r = await s.reconstruct();
    expect(r.stateAt(e).files.get(A)).toBe('b\n');
    expect(r.stateAt(root).files.get(A)).toBe('b\n');
    expect(r.stateAt(after).files.get(A)).toBe('b\n');
    expect(r.stateAt(after).known).toBe('reconstructed');
  });

  it('does not chain the first line of another run’s file to the file before it', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    s.edit('e', p, A, 'a\n', 'b\n', 'a', 'b');
    s.root('other', 'user', '9a9a9a9a-0000-4000-8000-000000000001');
    const r = await s.reconstruct();
    expect(r.stateAt('other').files.get(A)).toBe('a\n');
  });

  it('does not chain a subagent file’s unlinked root to the main file before it', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    s.edit('e', p, A, 'a\n', 'b\n', 'a', 'b');
    s.root('sub', 'user');
    (s.nodes[s.nodes.length - 1] as { sidechain: boolean }).sidechain = true;
    const r = await s.reconstruct();
    expect(r.stateAt('sub').files.get(A)).toBe('a\n');
  });
});

describe('a file changed outside the transcript', () => {
  it('says unknown for that file between its last known state and the edit that read other contents', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e1 = s.edit('e1', p, A, 'a\n', 'b\n', 'a', 'b');
    const w = s.write('w', e1, B, null, 'b file\n');
    const between = s.prompt('between', w);
    const side = s.prompt('side', between); // a branch leaving the interval
    const e2 = s.edit('e2', between, A, 'changed by the user\n', 'final\n', 'changed by the user', 'final');
    const r = await s.reconstruct();
    expect(r.stateAt(e1).known).toBe('reconstructed');
    for (const node of ['w', w, between, side, 'e2']) {
      const state = r.stateAt(node);
      expect(state.known, node).toBe('unknown');
      expect(state.fileUnknownSince.get(A), node).toEqual({ nodeId: 'w', reason: 'changed-outside-transcript' });
      expect(state.fileUnknownSince.has(B), node).toBe(false);
      expect(state.files.get(A), node).toBe('b\n'); // the replay, as best knowledge
    }
    expect(r.stateAt(e2).files.get(A)).toBe('final\n');
    expect(r.stateAt(e2).known).toBe('reconstructed');
    expect(r.stateAt(e2).fileUnknownSince.size).toBe(0);
    expect(r.knownAt(between)).toBe('unknown');
  });

  it('doubts from where the baseline’s own edit leaves the path, not before', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const left = s.edit('l', s.prompt('p1', p), A, 'base\n', 'left\n', 'base', 'left');
    // The user rewound the conversation only: the right branch reads the left branch's edit.
    const p2 = s.prompt('p2', p);
    const right = s.edit('r', p2, A, 'left\n', 'right\n', 'left', 'right');
    const r = await s.reconstruct();
    expect(r.stateAt(p).known).toBe('reconstructed');
    expect(r.stateAt(left).known).toBe('reconstructed');
    expect(r.stateAt(p2).fileUnknownSince.get(A)).toEqual({ nodeId: p2, reason: 'changed-outside-transcript' });
    expect(r.stateAt(right).known).toBe('reconstructed');
  });

  it('keeps the doubt across the per-level checkpoints of a long path', async () => {
    const s = new Session();
    let at = s.edit('e1', s.prompt('p', null), A, 'a\n', 'b\n', 'a', 'b');
    at = s.write('w', at, B, null, 'b\n');
    for (let k = 0; k < 400; k++) at = s.prompt(`q${k}`, at);
    const e2 = s.edit('e2', at, A, 'changed\n', 'final\n', 'changed', 'final');
    const r = await s.reconstruct();
    for (const node of ['q0', 'q127', 'q128', 'q255', 'q399']) {
      expect(r.stateAt(node).fileUnknownSince.get(A), node).toEqual({ nodeId: 'w', reason: 'changed-outside-transcript' });
      expect(r.stateAt(node).fileUnknownSince.has(B), node).toBe(false);
      expect(r.knownAt(node), node).toBe('unknown');
    }
    expect(r.stateAt(e2).known).toBe('reconstructed');
  });

  it('re-anchors one file after a shell command while the others stay unknown', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e1 = s.edit('e1', p, A, 'a\n', 'b\n', 'a', 'b');
    const w = s.write('w', e1, B, null, 'b1\n');
    const sh = s.bash('sh', w, 'python3 gen.py');
    const e2 = s.edit('e2', sh, A, 'generated\n', 'final\n', 'generated', 'final');
    const e3 = s.edit('e3', e2, B, 'b1\n', 'b2\n', 'b1', 'b2');
    const r = await s.reconstruct();
    expect(r.stateAt(sh).fileUnknownSince.get(B)).toEqual({ nodeId: sh, reason: 'shell' });
    expect(r.stateAt(sh).fileUnknownSince.get(A)).toEqual({ nodeId: 'w', reason: 'changed-outside-transcript' });
    expect(r.stateAt(e2).fileUnknownSince.has(A)).toBe(false);
    expect(r.stateAt(e2).fileUnknownSince.get(B)).toEqual({ nodeId: sh, reason: 'shell' });
    expect(r.stateAt(e2).known).toBe('unknown');
    expect(r.stateAt(e2).unknownSince).toEqual({ nodeId: sh, reason: 'shell' });
    // Every touched file was read again after the shell command: the state is known again.
    expect(r.stateAt(e3).fileUnknownSince.size).toBe(0);
    expect(r.stateAt(e3).known).toBe('reconstructed');
    expect(r.stateAt(e3).unknownSince).toBeNull();
    expect(r.knownAt(e3)).toBe('reconstructed');
  });
});

describe('a file changed outside the transcript, against a baseline a shell command came before', () => {
  it('doubts the file from the root when a may-write step lies between the branch point and the baseline’s edit', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const sh = s.bash('sh', s.prompt('p1', p), 'npm run format');
    s.edit('l', sh, A, 'formatted\n', 'left\n', 'formatted', 'left');
    const p2 = s.prompt('p2', p);
    const right = s.edit('r', p2, A, 'original\n', 'right\n', 'original', 'right');
    const r = await s.reconstruct();
    // The right branch read 'original': the baseline ('formatted', read after the shell command) was not the root's.
    expect(r.stateAt(p).fileUnknownSince.get(A)).toEqual({ nodeId: p, reason: 'changed-outside-transcript' });
    expect(r.stateAt(p).files.get(A)).toBe('formatted\n'); // the baseline, as best knowledge
    expect(r.stateAt(p2).known).toBe('unknown');
    expect(r.stateAt(right).known).toBe('reconstructed');
  });
});

describe('a baseline read after a shell command', () => {
  it('a file was said known, with the content a shell command left, at the nodes before that command', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const sh = s.bash('sh', p, 'npm run format');
    const e = s.edit('e', sh, A, 'formatted\n', 'edited\n', 'formatted', 'edited');
    const side = s.prompt('side', p);
    const r = await s.reconstruct();
    // 'formatted' was read after the command: before it (and on a branch that never ran it) the file is in doubt.
    for (const at of [p, side]) {
      expect(r.stateAt(at).files.get(A)).toBe('formatted\n');
      expect(r.stateAt(at).fileUnknownSince.get(A)).toEqual({ nodeId: sh, reason: 'shell' });
      expect(r.knownAt(at)).toBe('unknown');
      expect(r.stateAt(at).unknownSince).toBeNull();
    }
    expect(r.stateAt(sh).fileUnknownSince.get(A)).toEqual({ nodeId: sh, reason: 'shell' });
    expect(r.knownAt(e)).toBe('reconstructed');
  });

  it('keeps a baseline read before any shell command known back to the root', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e = s.edit('e', p, A, 'original\n', 'edited\n', 'original', 'edited');
    s.bash('sh', e, 'npm run format');
    const r = await s.reconstruct();
    expect(r.knownAt(p)).toBe('reconstructed');
    expect(r.stateAt(p).files.get(A)).toBe('original\n');
  });
});
