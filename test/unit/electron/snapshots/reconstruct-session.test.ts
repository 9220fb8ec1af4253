import { describe, expect, it } from 'vitest';
import { reconstructSession, UNKNOWN_CONTENT } from '../../../../electron/snapshots/reconstruct';
import { Session } from './session-builder';

const A = '/w/a.txt';
const B = '/w/b.txt';

describe('reconstructSession', () => {
  it('replays edits along the path: the call does not change state, its result does', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e1 = s.edit('e1', p, A, 'one\ntwo\n', 'one\n2\n', 'two', '2');
    const e2 = s.write('e2', e1, B, null, 'new file\n');
    const e3 = s.edit('e3', e2, A, 'one\n2\n', 'ONE\n2\n', 'one', 'ONE');
    const r = await s.reconstruct();
    expect(r.touchedFiles).toEqual([A, B]);
    expect(r.stateAt('p').files).toEqual(new Map([[A, 'one\ntwo\n'], [B, null]]));
    expect(r.stateAt('e1').files.get(A)).toBe('one\ntwo\n');
    expect(r.stateAt(e1).files.get(A)).toBe('one\n2\n');
    expect(r.stateAt(e2).files).toEqual(new Map([[A, 'one\n2\n'], [B, 'new file\n']]));
    expect(r.stateAt(e3).files.get(A)).toBe('ONE\n2\n');
    expect(r.stateAt(e3).known).toBe('reconstructed');
    expect(r.changedAt(e3)).toEqual([{ path: A, before: 'one\n2\n', after: 'ONE\n2\n' }]);
    expect(r.changedAt(e2)).toEqual([{ path: B, before: null, after: 'new file\n' }]);
    expect(r.changedAt('e3')).toEqual([]);
    expect(r.problems).toEqual([]);
    expect(r.stats).toMatchObject({ edits: 3, files: 2, unknownNodes: 0 });
  });

  it('gives two branches editing the same file their own states', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const left = s.edit('l', s.prompt('p1', p), A, 'base\n', 'left\n', 'base', 'left');
    const right = s.edit('r', s.prompt('p2', p), A, 'base\n', 'right\n', 'base', 'right');
    const r = await s.reconstruct();
    expect(r.stateAt(left).files.get(A)).toBe('left\n');
    expect(r.stateAt(right).files.get(A)).toBe('right\n');
    expect(r.stateAt('p2').files.get(A)).toBe('base\n');
    expect(r.problems).toEqual([]);
  });

  it('ignores rejected and failed edits', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const ok = s.edit('e1', p, A, 'x\n', 'y\n', 'x', 'y');
    const rejected = s.tool('e2', ok, 'Edit', { file_path: A, old_string: 'y', new_string: 'z' }, { value: "Error: The user doesn't want to proceed with this tool use.", isError: true });
    const r = await s.reconstruct();
    expect(r.stateAt(rejected).files.get(A)).toBe('y\n');
    expect(r.editsAt(rejected)).toEqual([]);
    expect(r.stateAt(rejected).known).toBe('reconstructed');
  });

  it('rebuilds an old Write update by reverse-applying, and an Edit without originalFile from the derived state', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const w = s.write('w', p, A, 'v1\nkeep\n', 'v2\nkeep\n', false);
    const e = s.edit('e', w, A, 'v2\nkeep\n', 'v2\nkept\n', 'keep', 'kept', false);
    const r = await s.reconstruct();
    expect(r.stateAt('p').files.get(A)).toBe('v1\nkeep\n');
    expect(r.editsAt(w)[0]?.source).toBe('reverse-patch');
    expect(r.editsAt(e)[0]?.before).toBe(UNKNOWN_CONTENT);
    expect(r.stateAt(e).files.get(A)).toBe('v2\nkept\n');
    expect(r.problems).toEqual([]);
  });

  it('marks nodes unknown from a shell command that may write, not for read-only ones', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e = s.edit('e', p, A, 'a\n', 'b\n', 'a', 'b');
    const look = s.bash('ls', e, 'git status && ls -la');
    const build = s.bash('build', look, 'npm run build');
    const after = s.prompt('after', build);
    const r = await s.reconstruct();
    expect(r.stateAt(look).known).toBe('reconstructed');
    expect(r.stateAt('build').known).toBe('reconstructed'); // the call: the command has not run yet
    expect(r.stateAt(build).known).toBe('unknown');
    expect(r.stateAt(after).known).toBe('unknown');
    expect(r.stateAt(after).unknownSince).toEqual({ nodeId: build, reason: 'shell' });
    expect(r.stateAt(after).files.get(A)).toBe('b\n'); // best knowledge is still given
  });

  it('marks a file-edit call whose outcome was never recorded as unknown', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const call = s.tool('w', p, 'Write', { file_path: A, content: 'x' });
    const r = await s.reconstruct();
    expect(r.stateAt(call).known).toBe('unknown');
    expect(r.stateAt(call).unknownSince?.reason).toBe('unrecorded-outcome');
  });

  it('reports an edit whose recorded pre-state differs from its path instead of throwing', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e1 = s.edit('e1', p, A, 'a\n', 'b\n', 'a', 'b');
    const sh = s.bash('sh', e1, 'python3 gen.py');
    const e2 = s.edit('e2', sh, A, 'generated\n', 'final\n', 'generated', 'final');
    const r = await s.reconstruct();
    expect(r.problems).toEqual([{ kind: 'before-mismatch', nodeId: e2, toolUseId: 'toolu_3', path: A, afterUnrecordedStep: true }]);
    expect(r.stateAt(e2).files.get(A)).toBe('final\n');
    expect(r.changedAt(e2)).toEqual([{ path: A, before: 'b\n', after: 'final\n' }]);
  });

  it('carries state across a compaction and into a subagent run; a writing subagent makes its result unknown', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e = s.edit('e', p, A, 'a\n', 'b\n', 'a', 'b');
    const compacted = s.prompt('c', null, [{ kind: 'logical', nodeId: e }]);
    const task = s.tool('task', compacted, 'Task', { prompt: 'fix' }, { value: { status: 'completed', agentId: 'x' } });
    const sub = s.prompt('sub', null, [{ kind: 'subagent', nodeId: 'task' }]);
    const subEdit = s.edit('se', sub, B, 'q\n', 'r\n', 'q', 'r');
    const r = await s.reconstruct();
    expect(r.stateAt(compacted).files.get(A)).toBe('b\n');
    expect(r.stateAt(subEdit).files).toEqual(new Map([[A, 'b\n'], [B, 'r\n']]));
    expect(r.stateAt(subEdit).known).toBe('reconstructed');
    expect(r.stateAt(task).known).toBe('unknown');
    expect(r.stateAt(task).unknownSince?.reason).toBe('subagent');
  });

  it('keeps a read-only subagent known', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const task = s.tool('task', p, 'Agent', { prompt: 'review' }, { value: { status: 'completed', agentId: 'x' } });
    const sub = s.prompt('sub', null, [{ kind: 'subagent', nodeId: 'task' }]);
    s.tool('read', sub, 'Read', { file_path: A }, { value: { type: 'text', file: { filePath: A, content: '' } } });
    const r = await s.reconstruct();
    expect(r.stateAt(task).known).toBe('reconstructed');
  });

  it('applies a parallel call result left hanging beside the continuation to the continuation', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    // call 1 (edit A) → call 2 (edit B) → result 2, while result 1 hangs off call 1.
    // Transcript order as written: call 1, call 2, result 1, result 2.
    const r1 = s.edit('c1', p, A, 'a\n', 'A\n', 'a', 'A');
    const result1 = s.nodes.pop()!;
    const r2 = s.edit('c2', 'c1', B, 'b\n', 'B\n', 'b', 'B');
    const result2 = s.nodes.pop()!;
    s.nodes.push(result1, result2);
    const next = s.prompt('next', r2);
    const r = await s.reconstruct();
    expect(r.stateAt(r1).files.get(A)).toBe('A\n');
    expect(r.stateAt(r2).files).toEqual(new Map([[A, 'A\n'], [B, 'B\n']]));
    expect(r.stateAt(next).files.get(A)).toBe('A\n');
    expect(r.problems).toEqual([]);
  });

  it('walks a 50,000-deep chain without recursion and answers stateAt at the bottom', async () => {
    const s = new Session();
    let at = s.prompt('p0', null);
    for (let i = 1; i < 50_000; i++) at = s.prompt(`p${i}`, at);
    const e = s.edit('e', at, A, 'x\n', 'y\n', 'x', 'y');
    for (let i = 0; i < 200; i++) at = s.prompt(`q${i}`, i === 0 ? e : `q${i - 1}`);
    const r = await s.reconstruct();
    expect(r.stateAt('p49999').files.get(A)).toBe('x\n');
    expect(r.stateAt(at).files.get(A)).toBe('y\n');
  });

  it('stops when cancelled', async () => {
    const s = new Session();
    s.edit('e', s.prompt('p', null), A, 'x\n', 'y\n', 'x', 'y');
    const controller = new AbortController();
    controller.abort();
    await expect(reconstructSession(s.nodes, (id) => s.raws.get(id) ?? null, { signal: controller.signal })).rejects.toThrow();
  });
});
