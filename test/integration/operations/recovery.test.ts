/**
 * Recovery from journals a crash left behind, written by hand (the child-process crash test covers the real
 * kills): a file someone changed since is reported and left alone, temporary files and the folders the
 * operation created are removed, and an interrupted undo that finished all its writes marks its target undone.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOperationJournal, type OperationJournal } from '../../../electron/db/operation-journal';
import { readWorkspaceFile, storeBlobs, type FileVersion } from '../../../electron/git/workspace-files';
import { temporaryPath } from '../../../electron/operations/file-writes';
import { listWorkspace, openEngine, tempDir, writeEntry, type Engine } from './operation-fixture';

const text = (value: string) => ({ kind: 'file' as const, bytes: Buffer.from(value) });

describe('recovery of interrupted operations', () => {
  let temp: ReturnType<typeof tempDir>;
  let workspace: string;
  let engine: Engine;
  let journal: OperationJournal;

  // One writer for all of them: several writers at once in one process sometimes read each other's unfinished
  // pack index (seen here as "corrupt pack index tmp_….idx"; electron/git/object-store.ts refresh).
  const versions = async (contents: readonly string[]): Promise<FileVersion[]> =>
    (await storeBlobs(engine.objects, contents.map((content) => Buffer.from(content)))).map((oid) => ({ oid, mode: '100644' as const }));
  const begin = (id: string, files: { path: string; before: FileVersion | null; after: FileVersion | null }[], extra: { undoes?: string; createdDirs?: string[] } = {}) =>
    journal.begin(
      { id, kind: extra.undoes ? 'undo' : 'rewind', workspace, nodeId: null, undoes: extra.undoes ?? null, sideEffects: [], safetyCommit: null, createdDirs: extra.createdDirs ?? [], createdAt: '2025-06-01T12:00:00.000Z' },
      files.map((file, seq) => ({ seq, ...file })),
    );

  beforeEach(() => {
    temp = tempDir('operations-recovery');
    workspace = join(temp.path, 'workspace');
    mkdirSync(workspace);
    engine = openEngine(join(temp.path, 'data'));
    journal = createOperationJournal(engine.store.handles);
  });
  afterEach(() => {
    engine.close();
    temp.remove();
  });

  it('rolls back what was written, reports a file changed since, and removes temporaries and created folders', async () => {
    const [oldA, newA, oldB, newB, newC, untouched, lostOld, lostNew] = await versions(['a0\n', 'a1\n', 'b0\n', 'b1\n', 'c1\n', 'planned but never reached\n', 'l0\n', 'l1\n']);
    // a.txt: written (done); b.txt: changed by someone since; made/deep/c.txt: renamed but not journaled done;
    // untouched.txt: never reached; lost.txt: renamed, but its intent was lost (a power cut, WAL not synced).
    writeEntry(workspace, 'a.txt', text('a1\n'));
    writeEntry(workspace, 'b.txt', text('someone else\n'));
    writeEntry(workspace, 'made/deep/c.txt', text('c1\n'));
    writeEntry(workspace, 'untouched.txt', text('planned but never reached\n'));
    writeEntry(workspace, 'lost.txt', text('l1\n'));
    begin(
      'op-crashed',
      [
        { path: 'a.txt', before: oldA!, after: newA! },
        { path: 'b.txt', before: oldB!, after: newB! },
        { path: 'made/deep/c.txt', before: null, after: newC! },
        { path: 'untouched.txt', before: untouched!, after: null },
        { path: 'lost.txt', before: lostOld!, after: lostNew! },
      ],
      { createdDirs: ['made', 'made/deep'] },
    );
    for (const seq of [0, 1]) journal.markFile('op-crashed', seq, 'done');
    journal.markFile('op-crashed', 2, 'writing');
    writeFileSync(temporaryPath(workspace, 'made/deep/c.txt', 'op-crashed', 2), 'half a temporary file');

    const report = await engine.runner.recover();
    expect(report.rolledBack).toEqual(['op-crashed']);
    expect(report.completed).toEqual([]);
    expect(report.problems.map((p) => [p.operation, p.path])).toEqual([['op-crashed', 'b.txt']]);
    expect(listWorkspace(workspace)).toEqual(
      new Map([
        ['a.txt', `file:${Buffer.from('a0\n').toString('base64')}`],
        ['b.txt', `file:${Buffer.from('someone else\n').toString('base64')}`],
        ['lost.txt', `file:${Buffer.from('l0\n').toString('base64')}`],
        ['untouched.txt', `file:${Buffer.from('planned but never reached\n').toString('base64')}`],
      ]),
    );
    expect(existsSync(join(workspace, 'made'))).toBe(false);
    expect(engine.runner.list()[0]).toMatchObject({ operation: 'op-crashed', status: 'rolled-back', written: ['a.txt', 'b.txt', 'lost.txt'], created: ['made/deep/c.txt'], deleted: ['untouched.txt'] });
  });

  it('recovery of a folder swapped for a symlink before the next start writes nothing through it', async () => {
    const [oldA, newA] = await versions(['a0\n', 'a1\n']);
    // The operation wrote src/a.txt and was killed; then src became a symlink to a folder outside the
    // workspace that holds, at the same name, the very bytes the operation wrote.
    const outside = join(temp.path, 'outside');
    writeEntry(outside, 'a.txt', text('a1\n'));
    symlinkSync(outside, join(workspace, 'src'));
    begin('op-swapped', [{ path: 'src/a.txt', before: oldA!, after: newA! }]);
    journal.markFile('op-swapped', 0, 'done');
    const report = await engine.runner.recover();
    expect(report.rolledBack).toEqual(['op-swapped']);
    expect(report.problems.map((p) => p.path)).toEqual(['src/a.txt']);
    expect(listWorkspace(outside)).toEqual(new Map([['a.txt', `file:${Buffer.from('a1\n').toString('base64')}`]]));
  });

  it('an interrupted operation whose workspace was removed since is rolled back with a problem, not retried at every start', async () => {
    const [oldA, newA] = await versions(['a0\n', 'a1\n']);
    begin('op-gone', [{ path: 'a.txt', before: oldA!, after: newA! }]);
    rmSync(workspace, { recursive: true });
    const report = await engine.runner.recover();
    expect(report).toMatchObject({ rolledBack: ['op-gone'], completed: [], problems: [{ operation: 'op-gone', path: '' }] });
    expect(await engine.runner.recover()).toEqual({ rolledBack: [], completed: [], problems: [] });
  });

  it('completes an undo whose writes were all done, marking the operation it reverses undone', async () => {
    const [oldA, newA] = await versions(['a0\n', 'a1\n']);
    begin('op-rewind', [{ path: 'a.txt', before: oldA!, after: newA! }]);
    journal.markFile('op-rewind', 0, 'done');
    journal.finish('op-rewind', 'applied', '2025-06-01T12:00:01.000Z');
    writeEntry(workspace, 'a.txt', text('a0\n'));
    begin('op-undo', [{ path: 'a.txt', before: newA!, after: oldA! }], { undoes: 'op-rewind' });
    journal.markFile('op-undo', 0, 'done');

    expect(await engine.runner.recover()).toEqual({ rolledBack: [], completed: ['op-undo'], problems: [] });
    expect((await readWorkspaceFile(workspace, 'a.txt'))?.oid).toBe(oldA!.oid);
    expect(engine.runner.list().map((o) => [o.operation, o.status])).toEqual([
      ['op-undo', 'applied'],
      ['op-rewind', 'undone'],
    ]);
    expect(engine.runner.list({ workspace: join(temp.path, 'elsewhere') })).toEqual([]);
    expect(engine.runner.list({ workspace, limit: 1 }).map((o) => o.operation)).toEqual(['op-undo']);
  });
});
