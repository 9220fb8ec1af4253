/** The snapshot store reads only finished packs: another writer's temporary pack files are not its business. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../../../electron/git/object-store';
import { tempDir } from './git-fixture';

describe('SnapshotStore.refresh', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it("a half-written pack index of another writer (tmp_*.idx beside tmp_*.pack) is not read as a corrupt pack", () => {
    const dir = tempDir('pack-refresh');
    dirs.push(dir);
    const store = SnapshotStore.open({ dataDir: dir.path });
    const tmp = join(store.packDir, 'tmp_0123456789ab');
    writeFileSync(`${tmp}.pack`, Buffer.from('PACK\0\0\0\x02'));
    writeFileSync(`${tmp}.idx`, Buffer.from([0xff, 0x74, 0x4f])); // cut mid-header, as a writer leaves it
    expect(() => store.refresh()).not.toThrow();
    expect(() => SnapshotStore.open({ dataDir: dir.path })).not.toThrow();
  });
});
