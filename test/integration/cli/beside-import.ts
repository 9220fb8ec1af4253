/**
 * The setting of the tests where an Arbor writer runs in one process while an import runs in another (fork and
 * rewind in workspace-writes-beside-import, gc and delete in forget/forget-beside-import): the demo store, one CLI
 * bundle, a synthetic corpus big enough that the import still holds its turn when the other process asks for it,
 * and whether the writer lock is held for an import right now.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSyntheticCorpus } from '../../../electron/demo/synthetic';
import { openCliDemo, type CliDemo } from './run-cli';
import { buildCliBundle } from './spawned-cli';

export interface BesideImport {
  readonly demo: CliDemo;
  readonly cli: ReturnType<typeof buildCliBundle>;
  readonly corpus: string;
  heldForImport(): boolean;
  remove(): void;
}

export async function openBesideImport(prefix: string, seed: number): Promise<BesideImport> {
  const demo = await openCliDemo(prefix);
  const cli = buildCliBundle();
  const corpus = join(demo.root, 'corpus');
  await writeSyntheticCorpus(corpus, { totalBytes: 20_000_000, nodesPerSession: 400, seed });
  const lockFile = join(demo.dataDir, 'locks', 'store-writer.lock');
  return {
    demo,
    cli,
    corpus,
    heldForImport: () => existsSync(lockFile) && readFileSync(lockFile, 'utf8').includes('"doing":"import"'),
    remove() {
      demo.remove();
      cli.remove();
    },
  };
}
