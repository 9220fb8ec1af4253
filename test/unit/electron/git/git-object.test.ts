import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EMPTY_TREE_OID, encodeCommit, encodeTree, hashObject, parseCommit, parseTree, sortTreeEntries } from '../../../../electron/git/git-object';
import { applyDelta, inflate, PackIndex } from '../../../../electron/git/pack-reader';
import { adler32, encodeIndex, zlibStored } from '../../../../electron/git/pack-writer';

describe('git objects', () => {
  it('names a blob the way git does', () => {
    // `echo hello | git hash-object --stdin`
    expect(hashObject('blob', Buffer.from('hello\n')).toString('hex')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(hashObject('tree', Buffer.alloc(0)).toString('hex')).toBe(EMPTY_TREE_OID);
  });

  it('orders a folder as if its name ended in a slash', () => {
    const oid = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
    const sorted = sortTreeEntries([
      { mode: '40000', name: 'a', oid },
      { mode: '100644', name: 'a.txt', oid },
      { mode: '100644', name: 'a-b', oid },
      { mode: '100644', name: 'é', oid },
      { mode: '100644', name: 'Z', oid },
    ]).map((e) => e.name);
    expect(sorted).toEqual(['Z', 'a-b', 'a.txt', 'a', 'é']);
  });

  it('round-trips trees and commits', () => {
    const entries = [
      { mode: '100755' as const, name: 'run.sh', oid: 'ce013625030ba8dba906f756967f9e9ca394464a' },
      { mode: '120000' as const, name: 'link', oid: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391' },
    ];
    expect(parseTree(encodeTree(entries))).toEqual(sortTreeEntries(entries));
    const who = { name: 'Arbor', email: 'a@arbor.invalid', timestamp: 1_700_000_000, timezoneOffsetMinutes: -90 };
    const body = encodeCommit({ tree: EMPTY_TREE_OID, parents: ['ce013625030ba8dba906f756967f9e9ca394464a'], author: who, committer: who, message: 'snap' });
    expect(body.toString()).toContain('committer Arbor <a@arbor.invalid> 1700000000 -0130\n\nsnap\n');
    expect(parseCommit(body)).toEqual({ tree: EMPTY_TREE_OID, parents: ['ce013625030ba8dba906f756967f9e9ca394464a'], message: 'snap\n', committedAt: 1_700_000_000 });
  });
});

describe('pack encoding', () => {
  it('writes zlib stored streams that zlib itself accepts, across block boundaries', () => {
    for (const size of [0, 1, 65535, 65536, 200_000]) {
      const data = Buffer.alloc(size, 7).map((_, i) => (i * 31) & 0xff);
      const stream = zlibStored(data);
      expect(Buffer.compare(inflateSync(stream), data)).toBe(0);
      expect(Buffer.compare(inflate(stream), data)).toBe(0);
    }
    expect(adler32(Buffer.from('Wikipedia'))).toBe(0x11e60398);
  });

  it('finds every object through the index it writes', () => {
    const entries = Array.from({ length: 300 }, (_, i) => ({ oid: hashObject('blob', Buffer.from(String(i))), offset: 12 + i * 10, crc: i }));
    const index = PackIndex.parse(encodeIndex(entries, Buffer.alloc(20)), 'test');
    for (const entry of entries) expect(index.find(entry.oid)).toBe(entry.offset);
    expect(index.find(hashObject('blob', Buffer.from('absent')))).toBe(-1);
    expect([...index.oids()]).toHaveLength(300);
  });

  it('applies git deltas (copy and insert)', () => {
    const base = Buffer.from('hello world, hello snapshots');
    // result size 17: copy base[0..6) "hello ", insert "arbor", copy base[5..11) " world"
    const delta = Buffer.from([base.length, 17, 0x90, 6, 5, ...Buffer.from('arbor'), 0x91, 5, 6]);
    expect(applyDelta(base, delta).toString()).toBe('hello arbor world');
  });
});
