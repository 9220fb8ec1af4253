import { resolve } from 'node:path';
import type { ArchiveExported } from '../../../shared/archive';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { plural } from '../format';
import { formatBytes } from './gc';

export const exportArchiveCommand: CliCommand = {
  name: 'export-archive',
  summary: 'Write the whole store to a folder, to move it to another machine',
  usage: `Usage: arbor export-archive DIR [--force] [--json]

Writes Arbor's whole store into the folder DIR, to install on another machine with arbor import-archive:

  arbor.sqlite    the store, a consistent copy made with SQLite's online backup (the app or an import may
                  keep running: it is copied in short steps and never holds them up for long)
  snapshots.git/  the snapshot repository, a plain bare git repository: git fsck passes on it, and any git
                  remote can carry it too (git push --mirror)
  manifest.json   what it holds: Arbor and schema version, when, counts, sizes, the sha256 of arbor.sqlite
  README.txt      what the folder is

The folder is written as DIR.partial and renamed to DIR once whole. Transcripts and fork folders stay where
they are: the sessions are browsable, searchable and forkable from the store alone.

Options:
  --force     Replace DIR when it exists and is not empty (else: refused, EXISTS)
  --json      Print {"dir","manifest":{…},"backupRestarts"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { force: { type: 'boolean' }, json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const stopProgress = context.io.interactive ? showProgress(context) : () => undefined;
    let exported: ArchiveExported;
    try {
      exported = await service.api['archive.export']({ dir: resolve(context.io.cwd, positionals[0] as string), force: values.force === true }, { signal: context.signal });
    } finally {
      stopProgress();
    }
    context.io.stdout(values.json === true ? `${JSON.stringify(exported)}\n` : describeExport(exported));
    return 0;
  },
};

function describeExport({ dir, manifest }: ArchiveExported): string {
  const { counts, sizes } = manifest;
  const lines = [
    `Wrote the archive ${dir}`,
    `  ${plural(counts.sessions, 'session')}, ${plural(counts.nodes, 'step')}, ${plural(counts.snapshots, 'snapshot')}, ${plural(counts.forks, 'fork')}`,
    `  store ${formatBytes(sizes.database)} (schema ${manifest.schemaVersion}), snapshot repository ${formatBytes(sizes.snapshots)}`,
  ];
  if (manifest.missingObjects.length > 0) lines.push(`Note: the store already lacked ${plural(manifest.missingObjects.length, 'snapshot object')}; listed in manifest.json`);
  lines.push(`Install it elsewhere with: arbor import-archive ${JSON.stringify(dir)}`);
  return `${lines.join('\n')}\n`;
}

function showProgress(context: CliContext): () => void {
  let shown = false;
  let unsubscribe: (() => void) | undefined;
  void context.service().then((service) => {
    unsubscribe = service.events.on('operation.progress', ({ operation, phase, done, total }) => {
      if (operation !== 'archive-export') return;
      shown = true;
      context.io.stderr(`\r\x1b[KArchive: ${phase} ${total > 0 ? Math.floor((done / total) * 100) : 100}%`);
    });
  });
  return () => {
    unsubscribe?.();
    if (shown) context.io.stderr('\r\x1b[K');
  };
}
