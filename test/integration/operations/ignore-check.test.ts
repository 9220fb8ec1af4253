/**
 * The engine's per-path ignore check agrees with capture (which agrees with `git add -A`): a file is refused
 * exactly when a capture of the workspace would leave it out.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSnapshotFiles } from '../../../electron/git/tree-read';
import { createIgnoreCheck } from '../../../electron/operations/path-checks';
import { capture, listWorkspace, openEngine, tempDir, writeEntry, type Engine } from './operation-fixture';

const FILES: Record<string, string> = {
  '.gitignore': '*.log\n/build/\n!keep.log\ncache/\ndocs/**/*.tmp\n',
  '.git/info/exclude': 'excluded.txt\n',
  'a.log': '',
  'keep.log': '',
  'src/keep.log': '',
  'src/b.log': '',
  'build/x.js': '',
  'src/build/y.js': '',
  'src/cache/z': '',
  'cache/keep.log': '',
  'docs/a/b/c.tmp': '',
  'docs/c.tmp': '',
  'excluded.txt': '',
  'sub/excluded.txt': '',
  'nested/.gitignore': '*.md\n!README.md\n/only-here.txt\n',
  'nested/notes.md': '',
  'nested/README.md': '',
  'nested/only-here.txt': '',
  'nested/deeper/only-here.txt': '',
  'nested/deeper/page.md': '',
  'plain.txt': '',
};

describe('createIgnoreCheck', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: Engine;

  beforeEach(() => {
    temp = tempDir('operations-ignore');
    engine = openEngine(join(temp.path, 'data'));
  });
  afterEach(() => {
    engine.close();
    temp.remove();
  });

  it('refuses exactly the files capture leaves out', async () => {
    const root = join(temp.path, 'workspace');
    for (const [path, content] of Object.entries(FILES)) writeEntry(root, path, { kind: 'file', bytes: Buffer.from(content) });
    const kept = new Set(listSnapshotFiles(engine.objects, await capture(engine.objects, root)).map((f) => f.path));
    const ignored = createIgnoreCheck(root);
    const all = [...listWorkspace(root).keys()].filter((path) => !path.startsWith('.git/'));
    expect(all.filter((path) => ignored(path)).sort()).toEqual(all.filter((path) => !kept.has(path)).sort());
    // The fixture must exercise both sides, including a negation that cannot reach inside an ignored folder.
    expect(kept.has('keep.log') && !kept.has('cache/keep.log') && kept.has('nested/deeper/only-here.txt')).toBe(true);
    // Paths that do not exist yet are judged by the same rules.
    expect(['new.log', 'build/new.js', 'nested/new.md', 'src/new.ts'].map(ignored)).toEqual([true, true, true, false]);
  });
});
