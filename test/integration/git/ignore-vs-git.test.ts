/** The ignore table, decided by native git on real files, and the tree a capture builds from them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureDirectory } from '../../../electron/git/capture';
import { SnapshotStore } from '../../../electron/git/object-store';
import { listSnapshotFiles } from '../../../electron/git/tree-read';
import { IGNORE_CASES, IGNORE_FILES, INFO_EXCLUDE } from '../../unit/electron/git/ignore-cases';
import { git, gitAvailable, gitStatus, NO_GIT, tempDir } from './git-fixture';

describe.skipIf(!gitAvailable)(`ignore rules against git check-ignore${gitAvailable ? '' : ` (${NO_GIT})`}`, () => {
  const temp = tempDir('ignore');
  const workspace = join(temp.path, 'workspace');

  beforeAll(() => {
    mkdirSync(workspace);
    git(workspace, ['init', '-q']);
    writeFileSync(join(workspace, '.git', 'info', 'exclude'), INFO_EXCLUDE);
    for (const [path, content] of Object.entries(IGNORE_FILES)) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), content);
    }
    for (const { path, directory } of IGNORE_CASES) {
      const absolute = join(workspace, path);
      if (directory) {
        mkdirSync(absolute, { recursive: true });
        writeFileSync(join(absolute, 'inside.js'), 'x');
      } else {
        mkdirSync(dirname(absolute), { recursive: true });
        writeFileSync(absolute, `content of ${path}\n`);
      }
    }
  });
  afterAll(() => temp.remove());

  it.each(IGNORE_CASES)('git agrees: $path → ignored: $ignored', ({ path, ignored }) => {
    const { status } = gitStatus(workspace, ['check-ignore', '-q', '--no-index', path]);
    expect(status === 0).toBe(ignored);
  });

  it('captures exactly the tree `git add -A && git write-tree` gives', async () => {
    const store = SnapshotStore.open({ dataDir: join(temp.path, 'data') });
    const result = await captureDirectory(store, workspace);
    git(workspace, ['add', '-A']);
    const expected = git(workspace, ['write-tree']).trim();
    expect(result.treeOid).toBe(expected);
    const paths = listSnapshotFiles(store, result.treeOid).map((f) => f.path);
    for (const { path, directory, ignored } of IGNORE_CASES) {
      const present = directory ? paths.includes(`${path}/inside.js`) : paths.includes(path);
      expect(present, path).toBe(!ignored);
    }
    store.close();
  });
});
