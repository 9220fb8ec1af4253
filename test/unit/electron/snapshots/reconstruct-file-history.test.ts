/**
 * Claude Code's file-history backups as a third source of file states (FORMATS.md §1.7): they fill states the
 * edits leave unknown, disagreements are reported, and without backups nothing changes.
 */
import { describe, expect, it } from 'vitest';
import type { Reconstruction } from '../../../../electron/snapshots/reconstruct';
import { Session } from './session-builder';

const A = '/w/a.txt';
const B = '/w/b.txt';

/** Backups by name, as `file-history/<session>/` would hold them; anything else is missing. */
function backups(files: Readonly<Record<string, string | Buffer>>) {
  const reads: string[] = [];
  const read = async (_sessionId: string, name: string): Promise<Buffer | null> => {
    reads.push(name);
    const content = files[name];
    return content === undefined ? null : Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  };
  return { read, reads };
}

/** Every node's state, as plain data, to compare two reconstructions. */
function everyState(s: Session, r: Reconstruction) {
  return s.nodes.map((node) => {
    const state = r.stateAt(node.id);
    return { id: node.id, files: [...state.files], unknown: state.unknownFiles, known: state.known, since: state.unknownSince, changed: r.changedAt(node.id) };
  });
}

function expectKnownAtMatchesStateAt(s: Session, r: Reconstruction) {
  for (const node of s.nodes) expect(r.knownAt(node.id), node.id).toBe(r.stateAt(node.id).known);
}

describe('reconstructSession with file-history backups', () => {
  /** A file changed by a shell command, then edited by a result that does not carry its pre-state. */
  function bashThenEdit() {
    const s = new Session();
    const p1 = s.prompt('p1', null);
    s.checkpoint(p1, {});
    const bash = s.bash('sh', p1, 'printf "from bash\\n" > a.txt');
    const p2 = s.prompt('p2', bash);
    s.checkpoint(p2, { 'a.txt': 'aaaaaaaaaaaaaaaa@v1' });
    const edit = s.edit('e', p2, A, 'from bash\n', 'edited\n', 'from bash', 'edited', false);
    return { s, p1, bash, p2, edit };
  }

  it('gives a file first changed by a shell command its pre-state from the backup', async () => {
    const { s, p1, p2, edit } = bashThenEdit();
    const without = await s.reconstruct();
    expect(without.stateAt(edit).unknownFiles).toEqual([A]);

    const store = backups({ 'aaaaaaaaaaaaaaaa@v1': 'from bash\n' });
    const r = await s.reconstruct({ fileHistory: s.fileHistory(store.read) });
    expect(r.stateAt(p1).unknownFiles).toEqual([A]); // before the checkpoint nothing tells it
    expect(r.stateAt(p2).files.get(A)).toBe('from bash\n');
    expect(r.stateAt(edit).files.get(A)).toBe('edited\n');
    // The backup is a state, not a change: only the edit changes the file.
    expect(r.changedAt(p2)).toEqual([]);
    expect(r.changedAt(edit)).toEqual([{ path: A, before: 'from bash\n', after: 'edited\n' }]);
    // Every touched file was read at p2: the shell command before it no longer makes the state unknown.
    expect(r.stateAt(p2).known).toBe('reconstructed');
    expect(r.stateAt(edit).known).toBe('reconstructed');
    expect(r.stateAt('sh.r').known).toBe('unknown');
    expect(r.problems).toEqual([]);
    expect(r.stats.backupObservations).toBe(1);
    expectKnownAtMatchesStateAt(s, r);
  });

  it('keeps the state unknown after a shell command when a touched file was not read', async () => {
    const { s, edit } = bashThenEdit();
    s.write('w', edit, B, 'b0\n', 'b1\n');
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v1': 'from bash\n' }).read) });
    expect(r.stateAt('p2').files.get(A)).toBe('from bash\n');
    expect(r.stateAt('p2').known).toBe('unknown');
    expect(r.stateAt('p2').unknownSince?.reason).toBe('shell');
    expectKnownAtMatchesStateAt(s, r);
  });

  it('reads a null backup as a file that did not exist', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    s.checkpoint(p, {});
    // An old Write result: neither `type` nor `originalFile` says whether the file existed.
    const call = s.tool('w', p, 'Write', { file_path: A, content: 'new\n' }, { value: { filePath: A, content: 'new\n', structuredPatch: [] } });
    s.checkpoint('w', { 'a.txt': null }, { checkpointId: p });
    const without = await s.reconstruct();
    expect(without.stateAt('w').unknownFiles).toEqual([A]);
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({}).read) });
    expect(r.stateAt('w').files.get(A)).toBeNull();
    expect(r.stateAt('w').unknownFiles).toEqual([]);
    expect(r.stateAt(call).files.get(A)).toBe('new\n');
    expect(r.changedAt(call)).toEqual([{ path: A, before: null, after: 'new\n' }]);
  });

  it('reports a backup that disagrees with the derived state, and takes the file as read', async () => {
    const s = new Session();
    const p1 = s.prompt('p1', null);
    const e1 = s.edit('e1', p1, A, 'x\n', 'y\n', 'x', 'y');
    // Between the turns the user changed the file in an editor: the next checkpoint read it.
    const p2 = s.prompt('p2', e1);
    s.checkpoint(p2, { 'a.txt': 'aaaaaaaaaaaaaaaa@v2' });
    const e2 = s.edit('e2', p2, A, 'y (user)\n', 'z\n', 'y (user)', 'z');
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v2': 'y (user)\n' }).read) });
    expect(r.problems).toEqual([
      { kind: 'backup-mismatch', nodeId: p2, toolUseId: '', path: A, backupFileName: 'aaaaaaaaaaaaaaaa@v2', afterUnrecordedStep: false },
    ]);
    expect(r.stateAt(e1).files.get(A)).toBe('y\n');
    expect(r.stateAt(p2).files.get(A)).toBe('y (user)\n');
    expect(r.stateAt(e2).files.get(A)).toBe('z\n');
    // Without the backup the same difference shows up later, at the edit whose recorded pre-state it contradicts.
    expect((await s.reconstruct()).problems.map((problem) => problem.kind)).toEqual(['before-mismatch']);
  });

  it('keeps a recorded edit pre-state over a backup at the same node', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    const e = s.edit('e', p, A, 'recorded\n', 'after\n', 'recorded', 'after');
    // A checkpoint whose backup disagrees with the result's recorded originalFile: the tool read the file later.
    s.checkpoint('e', { 'a.txt': 'aaaaaaaaaaaaaaaa@v1' }, { checkpointId: p });
    const r = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v1': 'stale\n' }).read) });
    expect(r.stateAt(e).files.get(A)).toBe('after\n');
    expect(r.problems.map((problem) => problem.kind)).toEqual(['backup-mismatch', 'before-mismatch']);
  });

  it('reads only the backups an update adds, not the ones it repeats from earlier in the turn', async () => {
    const s = new Session();
    const p = s.prompt('p', null);
    s.checkpoint(p, { 'b.txt': 'bbbbbbbbbbbbbbbb@v1' });
    const eb = s.edit('eb', p, B, 'b0\n', 'b1\n', 'b0', 'b1');
    // Before editing a.txt, Claude Code backs it up and repeats b.txt's backup, taken before eb.
    s.checkpoint('ea', { 'b.txt': 'bbbbbbbbbbbbbbbb@v1', 'a.txt': 'aaaaaaaaaaaaaaaa@v1' }, { checkpointId: p });
    const ea = s.edit('ea', eb, A, 'a0\n', 'a1\n', 'a0', 'a1', false);
    const store = backups({ 'bbbbbbbbbbbbbbbb@v1': 'b0\n', 'aaaaaaaaaaaaaaaa@v1': 'a0\n' });
    const r = await s.reconstruct({ fileHistory: s.fileHistory(store.read) });
    expect(r.problems).toEqual([]);
    expect(r.stateAt('ea').files).toEqual(new Map([[A, 'a0\n'], [B, 'b1\n']]));
    expect(r.stateAt(ea).files.get(A)).toBe('a1\n');
    expect(r.stats.backupObservations).toBe(2);
    // One read per backup, however many lines name it.
    expect(store.reads.sort()).toEqual(['aaaaaaaaaaaaaaaa@v1', 'bbbbbbbbbbbbbbbb@v1']);
  });

  it('behaves exactly as before when the backups are missing, not UTF-8, or about untouched files', async () => {
    const { s } = bashThenEdit();
    s.checkpoint('p1', { 'elsewhere.txt': 'cccccccccccccccc@v1' });
    const before = await s.reconstruct();
    const missing = await s.reconstruct({ fileHistory: s.fileHistory(backups({}).read) });
    const binary = await s.reconstruct({ fileHistory: s.fileHistory(backups({ 'aaaaaaaaaaaaaaaa@v1': Buffer.from([0xff, 0xfe, 0x00]) }).read) });
    const untouched = backups({ 'cccccccccccccccc@v1': 'other\n' });
    await s.reconstruct({ fileHistory: s.fileHistory(untouched.read) });
    for (const r of [missing, binary]) {
      expect(everyState(s, r)).toEqual(everyState(s, before));
      expect(r.problems).toEqual(before.problems);
      expect(r.touchedFiles).toEqual(before.touchedFiles);
      expect(r.stats.backupObservations).toBe(0);
    }
    expect(untouched.reads).toEqual(['aaaaaaaaaaaaaaaa@v1']);
  });

  it('answers knownAt like stateAt on a longer session with branches', async () => {
    const s = new Session();
    let at = s.prompt('p', null);
    for (let i = 0; i < 300; i++) {
      at = i % 50 === 7 ? s.bash(`sh${i}`, at, 'npm test') : s.edit(`e${i}`, at, i % 2 === 0 ? A : B, `${i}\n`, `${i + 1}\n`, `${i}`, `${i + 1}`);
      if (i === 100) s.edit('side', at, A, 'x\n', 'y\n', 'x', 'y', false);
    }
    const r = await s.reconstruct();
    expect(new Set(s.nodes.map((node) => r.knownAt(node.id)))).toEqual(new Set(['reconstructed', 'unknown']));
    expectKnownAtMatchesStateAt(s, r);
    expect(() => r.knownAt('nope')).toThrow(RangeError);
  });
});
