import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  mergeTrees,
  settleWithSide,
  type MergedContent,
  type TreeFile,
  type TreeFileMode,
  type TreeMergeFile,
  type TreeMergeResult,
} from '../../../../shared/merge';

/** A tiny blob store: trees are written as path → content (or [content, mode]). */
class Blobs {
  readonly byOid = new Map<string, Uint8Array>();
  reads = 0;
  file(content: string | Uint8Array, mode: TreeFileMode = '100644'): TreeFile {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const oid = createHash('sha1').update(bytes).digest('hex');
    this.byOid.set(oid, bytes);
    return { oid, mode };
  }
  tree(files: Record<string, string | Uint8Array | readonly [string | Uint8Array, TreeFileMode]>): Map<string, TreeFile> {
    return new Map(
      Object.entries(files).map(([path, value]) =>
        typeof value === 'string' || value instanceof Uint8Array ? [path, this.file(value)] : [path, this.file(value[0], value[1])],
      ),
    );
  }
  load = (oid: string): Uint8Array => {
    this.reads++;
    const bytes = this.byOid.get(oid);
    if (bytes === undefined) throw new Error(`no blob ${oid}`);
    return bytes;
  };
  text(content: MergedContent): string | null {
    if (content.kind === 'deleted') return null;
    const bytes = content.kind === 'text' ? content.bytes : this.load(content.file.oid);
    return Buffer.from(bytes).toString('utf8');
  }
}

type Spec = Record<string, string | Uint8Array | readonly [string | Uint8Array, TreeFileMode]>;

async function merge(base: Spec, ours: Spec, theirs: Spec): Promise<{ blobs: Blobs; result: TreeMergeResult; at: (path: string) => TreeMergeFile }> {
  const blobs = new Blobs();
  const result = await mergeTrees({ base: blobs.tree(base), ours: blobs.tree(ours), theirs: blobs.tree(theirs), load: blobs.load });
  const at = (path: string): TreeMergeFile => {
    const file = result.files.find((candidate) => candidate.entry.path === path);
    if (file === undefined) throw new Error(`${path} not in the merge`);
    return file;
  };
  return { blobs, result, at };
}

const modeOf = (content: MergedContent): TreeFileMode | null =>
  content.kind === 'deleted' ? null : content.kind === 'text' ? content.mode : content.file.mode;

describe('mergeTrees', () => {
  it('lists only paths that differ, and takes the one side that changed a file', async () => {
    const { result, at, blobs } = await merge(
      { 'same.txt': 's\n', 'a.txt': 'a\n', 'b.txt': 'b\n' },
      { 'same.txt': 's\n', 'a.txt': 'a ours\n', 'b.txt': 'b\n' },
      { 'same.txt': 's\n', 'a.txt': 'a\n', 'b.txt': 'b theirs\n' },
    );
    expect(result.files.map((file) => file.entry.path)).toEqual(['a.txt', 'b.txt']);
    expect(at('a.txt').entry).toEqual({ path: 'a.txt', status: 'clean', changedBy: 'ours', conflicts: 0 });
    expect(at('b.txt').entry).toMatchObject({ status: 'clean', changedBy: 'theirs' });
    expect(blobs.text(at('a.txt').result)).toBe('a ours\n');
    expect(blobs.text(at('b.txt').result)).toBe('b theirs\n');
    expect(result.conflicted).toBe(0);
  });

  it('takes a change both sides made identically', async () => {
    const { at, blobs } = await merge({ 'f.txt': 'x\n' }, { 'f.txt': 'y\n' }, { 'f.txt': 'y\n' });
    expect(at('f.txt').entry).toMatchObject({ status: 'clean', changedBy: 'both' });
    expect(blobs.text(at('f.txt').result)).toBe('y\n');
  });

  it('merges separate text edits of both sides cleanly', async () => {
    const base = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    const { at, blobs } = await merge({ 'f.txt': base }, { 'f.txt': base.replace('one', 'ONE') }, { 'f.txt': base.replace('six', 'SIX') });
    expect(at('f.txt').entry).toMatchObject({ status: 'clean', changedBy: 'both', conflicts: 0 });
    expect(blobs.text(at('f.txt').result)).toBe('ONE\ntwo\nthree\nfour\nfive\nSIX\n');
  });

  it('counts conflicting hunks of a content conflict and writes git markers', async () => {
    const base = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const { result, at, blobs } = await merge(
      { 'f.txt': base },
      { 'f.txt': base.replace('b', 'B1').replace('g', 'G1') },
      { 'f.txt': base.replace('b', 'B2').replace('g', 'G2') },
    );
    expect(at('f.txt').entry).toEqual({ path: 'f.txt', status: 'conflicted', changedBy: 'both', conflict: 'content', conflicts: 2 });
    expect(blobs.text(at('f.txt').result)).toContain('<<<<<<< ours\nB1\n=======\nB2\n>>>>>>> theirs\n');
    expect(result.conflicted).toBe(1);
  });

  it('add/add: identical adds are clean, different adds merge against an empty base', async () => {
    const { at, blobs } = await merge({}, { 'same.txt': 'x\n', 'diff.txt': 'top\nours\n' }, { 'same.txt': 'x\n', 'diff.txt': 'top\ntheirs\n' });
    expect(at('same.txt').entry).toMatchObject({ status: 'added', changedBy: 'both' });
    expect(at('diff.txt').entry).toMatchObject({ status: 'conflicted', conflict: 'add/add', conflicts: 1 });
    expect(blobs.text(at('diff.txt').result)).toBe('top\n<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\n');
  });

  it('a file added by one side is added', async () => {
    const { at } = await merge({}, {}, { 'new.txt': 'n\n' });
    expect(at('new.txt').entry).toMatchObject({ status: 'added', changedBy: 'theirs' });
  });

  it('modify/delete and delete/modify conflict, keeping the edited version provisionally', async () => {
    const { at, blobs } = await merge({ 'm.txt': 'm\n', 'd.txt': 'd\n' }, { 'm.txt': 'm edited\n' }, { 'd.txt': 'd edited\n' });
    expect(at('m.txt').entry).toMatchObject({ status: 'conflicted', conflict: 'modify/delete', changedBy: 'both' });
    expect(at('d.txt').entry).toMatchObject({ status: 'conflicted', conflict: 'modify/delete' });
    expect(blobs.text(at('m.txt').result)).toBe('m edited\n');
    expect(blobs.text(at('d.txt').result)).toBe('d edited\n');
  });

  it('delete/delete deletes; a deletion by one side of an untouched file deletes', async () => {
    const { at } = await merge({ 'both.txt': 'b\n', 'one.txt': 'o\n' }, { 'one.txt': 'o\n' }, {});
    expect(at('both.txt').entry).toMatchObject({ status: 'deleted', changedBy: 'both' });
    expect(at('one.txt').entry).toMatchObject({ status: 'deleted', changedBy: 'theirs' });
    expect(at('one.txt').result).toEqual({ kind: 'deleted' });
  });

  it('never mixes binary files: two changes conflict, both versions stay available', async () => {
    const bin = (byte: number) => new Uint8Array([0x89, 0x50, 0, byte, 10]);
    const { at, blobs } = await merge({ 'i.png': bin(1), 'j.png': bin(1) }, { 'i.png': bin(2), 'j.png': bin(2) }, { 'i.png': bin(3), 'j.png': bin(1) });
    const image = at('i.png');
    expect(image.entry).toMatchObject({ status: 'conflicted', conflict: 'binary', binary: true, conflicts: 0 });
    expect(blobs.load(image.ours!.oid)).toEqual(bin(2));
    expect(blobs.load(image.theirs!.oid)).toEqual(bin(3));
    expect(at('j.png').entry).toMatchObject({ status: 'clean', changedBy: 'ours', binary: true });
  });

  it('merges a mode change on one side with a content change on the other', async () => {
    const { at, blobs } = await merge({ 'run.sh': 'echo 1\n' }, { 'run.sh': ['echo 1\n', '100755'] }, { 'run.sh': 'echo 2\n' });
    const file = at('run.sh');
    expect(file.entry).toMatchObject({ status: 'clean', changedBy: 'both' });
    expect(modeOf(file.result)).toBe('100755');
    expect(blobs.text(file.result)).toBe('echo 2\n');
  });

  it('keeps a one-sided mode change through a text merge of both sides', async () => {
    const base = 'a\nb\nc\nd\ne\n';
    const { at, blobs } = await merge({ 's.sh': base }, { 's.sh': [base.replace('a', 'A'), '100755'] }, { 's.sh': base.replace('e', 'E') });
    expect(modeOf(at('s.sh').result)).toBe('100755');
    expect(blobs.text(at('s.sh').result)).toBe('A\nb\nc\nd\nE\n');
  });

  it('two different mode changes conflict as mode', async () => {
    const { at } = await merge({}, { 'x.sh': ['same\n', '100644'] }, { 'x.sh': ['same\n', '100755'] });
    expect(at('x.sh').entry).toMatchObject({ status: 'conflicted', conflict: 'mode' });
    const base = 'a\nb\nc\nd\ne\n';
    const both = await merge({}, { 'y.sh': [base, '100644'] }, { 'y.sh': [base.replace('e', 'E'), '100755'] });
    expect(both.at('y.sh').entry.status).toBe('conflicted');
  });

  it('merges symlinks as whole values', async () => {
    const link = (target: string): readonly [string, TreeFileMode] => [target, '120000'];
    const { at, blobs } = await merge(
      { 'l1': link('a'), 'l2': link('a'), 'l3': 'file\n' },
      { 'l1': link('b'), 'l2': link('b'), 'l3': link('file') },
      { 'l1': link('c'), 'l2': link('a'), 'l3': 'file changed\n' },
    );
    expect(at('l1').entry).toMatchObject({ status: 'conflicted', conflict: 'symlink' });
    expect(at('l1').entry.binary).toBeUndefined();
    expect(at('l2').entry).toMatchObject({ status: 'clean', changedBy: 'ours' });
    expect(blobs.text(at('l2').result)).toBe('b');
    expect(modeOf(at('l2').result)).toBe('120000');
    expect(at('l3').entry).toMatchObject({ status: 'conflicted', conflict: 'symlink' });
  });

  it('follows an exact rename: the other side’s edits move to the new path', async () => {
    const base = 'one\ntwo\nthree\n';
    const { result, at, blobs } = await merge({ 'old.ts': base, 'keep.ts': 'k\n' }, { 'new.ts': base, 'keep.ts': 'k\n' }, { 'old.ts': base.replace('two', 'TWO'), 'keep.ts': 'k\n' });
    expect(result.files.map((file) => file.entry.path)).toEqual(['new.ts', 'old.ts']);
    expect(at('new.ts').entry).toEqual({ path: 'new.ts', status: 'clean', changedBy: 'both', conflicts: 0, renamedFrom: 'old.ts' });
    expect(blobs.text(at('new.ts').result)).toBe('one\nTWO\nthree\n');
    expect(at('old.ts').entry).toMatchObject({ status: 'deleted', changedBy: 'ours' });
    expect(at('old.ts').result).toEqual({ kind: 'deleted' });
    expect(result.conflicted).toBe(0);
  });

  it('marks a rename the other side did not touch, and a rename by theirs', async () => {
    const plain = await merge({ 'a.txt': 'x\n' }, { 'a.txt': 'x\n' }, { 'b.txt': 'x\n' });
    expect(plain.at('b.txt').entry).toMatchObject({ status: 'clean', changedBy: 'theirs', renamedFrom: 'a.txt' });
    expect(plain.blobs.text(plain.at('b.txt').result)).toBe('x\n');
    expect(plain.at('a.txt').entry).toMatchObject({ status: 'deleted', changedBy: 'theirs' });
  });

  it('does not follow a rename when the other side deleted the old path or added the new one', async () => {
    const deleted = await merge({ 'a.txt': 'x\n' }, { 'b.txt': 'x\n' }, {});
    expect(deleted.at('b.txt').entry).toMatchObject({ status: 'added', changedBy: 'ours' });
    expect(deleted.at('b.txt').entry.renamedFrom).toBeUndefined();
    const added = await merge({ 'a.txt': 'x\n' }, { 'b.txt': 'x\n' }, { 'a.txt': 'x2\n', 'b.txt': 'y\n' });
    expect(added.at('a.txt').entry.conflict).toBe('modify/delete');
    expect(added.at('b.txt').entry.conflict).toBe('add/add');
  });

  const lines = (n: number, tag = ''): string => Array.from({ length: n }, (_, i) => `line ${i}${tag}\n`).join('');

  it('follows a rename with edits: both sides’ changes meet at the new path', async () => {
    const base = lines(20);
    const moved = base.replace('line 2\n', 'line 2 (ours)\n');
    const edited = base.replace('line 15\n', 'line 15 (theirs)\n');
    const { result, at, blobs } = await merge({ 'src/old.ts': base }, { 'lib/new.ts': moved }, { 'src/old.ts': edited });
    expect(at('lib/new.ts').entry).toEqual({ path: 'lib/new.ts', status: 'clean', changedBy: 'both', conflicts: 0, renamedFrom: 'src/old.ts' });
    expect(blobs.text(at('lib/new.ts').result)).toBe(base.replace('line 2\n', 'line 2 (ours)\n').replace('line 15\n', 'line 15 (theirs)\n'));
    expect(at('src/old.ts').result).toEqual({ kind: 'deleted' });
    expect(result.conflicted).toBe(0);
  });

  it('conflicts at the new path when the moved file and the old one changed the same lines', async () => {
    const base = lines(20);
    const { result, at } = await merge({ 'a.ts': base }, { 'a.ts': base.replace('line 5\n', 'five (ours)\n') }, { 'b.ts': base.replace('line 5\n', 'five (theirs)\n') });
    expect(at('b.ts').entry).toMatchObject({ status: 'conflicted', renamedFrom: 'a.ts', conflicts: 1 });
    expect(at('a.ts').entry.status).toBe('deleted');
    expect(result.conflicted).toBe(1);
  });

  it('pairs each deleted file with the added file most like it, and never one less than half alike', async () => {
    const base = { 'x.ts': lines(10, ' x'), 'y.ts': lines(10, ' y') };
    const ours = { 'y2.ts': lines(9, ' y') + 'new\n', 'other.ts': lines(3, ' x') + lines(12, ' z') };
    const theirs = { 'x.ts': lines(10, ' x') + 'tail\n', 'y.ts': 'head\n' + lines(10, ' y') };
    const { at } = await merge(base, ours, theirs);
    expect(at('y2.ts').entry.renamedFrom).toBe('y.ts');
    // other.ts shares 3 of x.ts's 10 lines: a new file, and x.ts's edit meets ours' deletion.
    expect(at('other.ts').entry.renamedFrom).toBeUndefined();
    expect(at('x.ts').entry.conflict).toBe('modify/delete');
  });

  it('pairs binary files and symlinks only when identical', async () => {
    const binary = new Uint8Array(64).fill(7);
    const changed = Uint8Array.from(binary, (b, i) => (i === 0 ? 9 : b));
    const { at } = await merge({ 'a.bin': binary, l: ['target-a', '120000'] }, { 'b.bin': changed, m: ['target-b', '120000'] }, { 'a.bin': binary.slice(1), l: ['target-c', '120000'] });
    expect(at('b.bin').entry.renamedFrom).toBeUndefined();
    expect(at('m').entry.renamedFrom).toBeUndefined();
    expect(at('a.bin').entry.conflict).toBe('modify/delete');
  });

  it('merges text that is not UTF-8 byte for byte', async () => {
    const latin = (text: string) => Buffer.from(text, 'latin1');
    const base = latin('caf\xe9\nb\nc\nd\ne\n');
    const { at } = await merge({ 'l.txt': base }, { 'l.txt': latin('caf\xe9 \xff\nb\nc\nd\ne\n') }, { 'l.txt': latin('caf\xe9\nb\nc\nd\nE\xfe\n') });
    const result = at('l.txt').result;
    expect(result.kind).toBe('text');
    if (result.kind === 'text') expect(Buffer.from(result.bytes).equals(latin('caf\xe9 \xff\nb\nc\nd\nE\xfe\n'))).toBe(true);
  });

  it('stops when the signal is aborted', async () => {
    const blobs = new Blobs();
    const controller = new AbortController();
    controller.abort();
    const base = blobs.tree({ 'a.txt': 'a\n' });
    await expect(mergeTrees({ base, ours: blobs.tree({ 'b.txt': 'a\n' }), theirs: base, load: blobs.load, signal: controller.signal })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });
});

describe('settleWithSide', () => {
  it('settles only the conflicting hunks of a text conflict, keeping the other side’s clean edits', async () => {
    const base = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const { at, blobs } = await merge({ 'f.txt': base }, { 'f.txt': base.replace('b', 'B1') }, { 'f.txt': base.replace('b', 'B2').replace('h', 'H') });
    expect(blobs.text(settleWithSide(at('f.txt'), 'ours'))).toBe('a\nB1\nc\nd\ne\nf\ng\nH\n');
    expect(blobs.text(settleWithSide(at('f.txt'), 'theirs'))).toBe('a\nB2\nc\nd\ne\nf\ng\nH\n');
  });

  it('takes the chosen side’s whole version where nothing can be mixed', async () => {
    const { at, blobs } = await merge(
      { 'm.txt': 'm\n', 'i.bin': new Uint8Array([0, 1]) },
      { 'm.txt': 'm edited\n', 'i.bin': new Uint8Array([0, 2]) },
      { 'i.bin': new Uint8Array([0, 3]) },
    );
    expect(settleWithSide(at('m.txt'), 'theirs')).toEqual({ kind: 'deleted' });
    expect(blobs.text(settleWithSide(at('m.txt'), 'ours'))).toBe('m edited\n');
    const binary = settleWithSide(at('i.bin'), 'theirs');
    expect(binary.kind === 'file' && blobs.load(binary.file.oid)).toEqual(new Uint8Array([0, 3]));
  });

  it('settles a mode conflict with the chosen side’s mode and leaves clean files alone', async () => {
    const { at } = await merge({ 'c.txt': 'c\n' }, { 'x.sh': ['same\n', '100644'], 'c.txt': 'c2\n' }, { 'x.sh': ['same\n', '100755'], 'c.txt': 'c\n' });
    expect(modeOf(settleWithSide(at('x.sh'), 'theirs'))).toBe('100755');
    expect(modeOf(settleWithSide(at('x.sh'), 'ours'))).toBe('100644');
    expect(settleWithSide(at('c.txt'), 'theirs')).toBe(at('c.txt').result);
  });
});
