/**
 * `file-history-delta` (Claude Code 2026, issue 13): a per-edit backup beside `file-history-snapshot`. It tells
 * a file's state before its node's edit exactly, and wins over a snapshot entry for the same file and version.
 */
import { describe, expect, it } from 'vitest';
import { Session } from './session-builder';

const A = '/w/a.txt';

function backups(files: Readonly<Record<string, string>>) {
  const reads: string[] = [];
  const read = async (_sessionId: string, name: string): Promise<Buffer | null> => {
    reads.push(name);
    const content = files[name];
    return content === undefined ? null : Buffer.from(content, 'utf8');
  };
  return { read, reads };
}

/** A shell command changes a.txt, then an edit without a recorded pre-state: only a backup can tell it. */
function bashThenEdit() {
  const s = new Session();
  const p1 = s.prompt('p1', null);
  const bash = s.bash('sh', p1, 'printf "from bash\\n" > a.txt');
  const p2 = s.prompt('p2', bash);
  const call = 'e';
  const edit = s.edit(call, p2, A, 'from bash\n', 'edited\n', 'from bash', 'edited', false);
  return { s, p2, call, edit };
}

describe('file-history-delta', () => {
  it('file-history-delta: gives the edit its pre-state, at the node whose edit it backs up', async () => {
    const { s, call, edit } = bashThenEdit();
    expect((await s.reconstruct()).stateAt(edit).unknownFiles).toEqual([A]);
    s.delta(call, 'a.txt', 'aaaaaaaaaaaaaaaa@v2', 2);
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v2': 'from bash\n' }).read) });
    expect(r.stateAt(call).files.get(A)).toBe('from bash\n');
    expect(r.stateAt(edit).files.get(A)).toBe('edited\n');
    expect(r.stateAt(edit).known).toBe('reconstructed');
    expect(r.stats.backupObservations).toBe(1);
    expect(r.problems).toEqual([]);
  });

  it('file-history-delta: wins over a snapshot entry for the same file and version (that entry is not read)', async () => {
    const { s, p2, call, edit } = bashThenEdit();
    // The snapshot names another backup for the same file and version (a stale index): the delta is exact.
    s.checkpoint(p2, { 'a.txt': 'bbbbbbbbbbbbbbbb@v2' });
    s.delta(call, 'a.txt', 'aaaaaaaaaaaaaaaa@v2', 2);
    const store = backups({ 'aaaaaaaaaaaaaaaa@v2': 'from bash\n', 'bbbbbbbbbbbbbbbb@v2': 'stale\n' });
    const r = await s.reconstruct({ fileHistory: s.fileHistory(store.read) });
    expect(store.reads).toEqual(['aaaaaaaaaaaaaaaa@v2']);
    expect(r.stateAt(p2).unknownFiles).toEqual([A]);
    expect(r.stateAt(edit).files.get(A)).toBe('edited\n');
    expect(r.problems).toEqual([]);
  });

  it('file-history-delta: a snapshot entry of another version is still read', async () => {
    const { s, p2, call } = bashThenEdit();
    s.checkpoint(p2, { 'a.txt': 'bbbbbbbbbbbbbbbb@v1' });
    s.delta(call, 'a.txt', 'aaaaaaaaaaaaaaaa@v2', 2);
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v2': 'from bash\n', 'bbbbbbbbbbbbbbbb@v1': 'from bash\n' }).read) });
    expect(r.stateAt(p2).files.get(A)).toBe('from bash\n');
    expect(r.stats.backupObservations).toBe(2);
  });

  it('file-history-delta: a relative trackingPath is taken relative to realParentDir when given, else to the folder in force', async () => {
    const s = new Session();
    const p1 = s.prompt('p1', null);
    s.edit('e1', p1, '/moved/a.txt', 'one\n', 'two\n', 'one', 'two', false);
    s.delta('e1', 'a.txt', 'cccccccccccccccc@v1', 1);
    const store = backups({ 'cccccccccccccccc@v1': 'one\n' });
    // The line's cwd is /w, but the session had moved to /moved.
    const moved = await s.reconstruct({ fileHistory: s.fileHistory(store.read, () => '/moved') });
    expect(moved.stateAt('e1').files.get('/moved/a.txt')).toBe('one\n');
    const unmoved = await s.reconstruct({ fileHistory: s.fileHistory(store.read) });
    expect(unmoved.stateAt('e1').unknownFiles).toEqual(['/moved/a.txt']);

    const s2 = new Session();
    const q1 = s2.prompt('q1', null);
    s2.edit('f1', q1, '/elsewhere/b.txt', 'x\n', 'y\n', 'x', 'y', false);
    s2.delta('f1', 'b.txt', 'dddddddddddddddd@v1', 1, '/elsewhere');
    const r2 = await s2.reconstruct({ fileHistory: s2.fileHistory(backups({ 'dddddddddddddddd@v1': 'x\n' }).read) });
    expect(r2.stateAt('f1').files.get('/elsewhere/b.txt')).toBe('x\n');
  });

  it('file-history-delta: a null backup means the file did not exist before the edit', async () => {
    const s = new Session();
    const p1 = s.prompt('p1', null);
    s.write('w', p1, A, null, 'new\n', false);
    s.delta('w', 'a.txt', null, 1);
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({}).read) });
    expect(r.stateAt('w').files.get(A)).toBeNull();
    expect(r.stateAt('w.r').files.get(A)).toBe('new\n');
  });
});
