import { resolve } from 'node:path';
import type { ArchiveImported } from '../../../shared/archive';
import { ArborError } from '../../../shared/errors';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { plural } from '../format';

export const importArchiveCommand: CliCommand = {
  name: 'import-archive',
  summary: 'Install a store written by export-archive into this data folder',
  usage: `Usage: arbor import-archive DIR [--replace] [--json]

Installs the archive DIR (written by arbor export-archive, on this machine or another) as Arbor's store in
the data folder (--data-dir, else $ARBOR_DATA_DIR, else the app's folder). Its manifest and the sha256 of its
store file are checked, SQLite checks the file, and the snapshot repository must hold every snapshot the
store names; an archive from an older Arbor is migrated to this one's schema.

Into a data folder that already holds a store it refuses, unless --replace: the store there is moved aside
into <data folder>/replaced-<date>/ first (never deleted). Merging an archive into an existing store is not
supported. Close the app, arbor serve and arbor watch on the data folder first.

Sessions whose transcripts are not on this machine stay browsable, searchable and forkable from the store.

Options:
  --replace   Move the store already in the data folder aside and install the archive in its place
  --json      Print {"dataDir","manifest":{…},"schemaVersion","migrated","replacedTo"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { replace: { type: 'boolean' }, json: { type: 'boolean' } }, { min: 1, max: 1 });
    if (context.dataDir === undefined) throw new ArborError('INTERNAL', 'No data folder resolved');
    // Loaded here: the store's modules are not needed for --help. The store is not opened: this replaces it.
    const { importArchive } = await import('../../service/archive-import');
    let shown = false;
    const imported = await importArchive({
      archiveDir: resolve(context.io.cwd, positionals[0] as string),
      dataDir: context.dataDir,
      replace: values.replace === true,
      signal: context.signal,
      onWait: (message) => context.io.stderr(`arbor: ${message}\n`),
      onProgress: ({ phase, done, total }) => {
        if (!context.io.interactive) return;
        shown = true;
        context.io.stderr(`\r\x1b[KArchive: ${phase} ${total > 0 ? Math.floor((done / total) * 100) : 100}%`);
      },
    }).finally(() => {
      if (shown) context.io.stderr('\r\x1b[K');
    });
    context.io.stdout(values.json === true ? `${JSON.stringify(imported)}\n` : describeImport(imported));
    return 0;
  },
};

function describeImport(imported: ArchiveImported): string {
  const { counts } = imported.manifest;
  const lines = [
    `Installed the archive into ${imported.dataDir}`,
    `  ${plural(counts.sessions, 'session')}, ${plural(counts.nodes, 'step')}, ${plural(counts.snapshots, 'snapshot')}, ${plural(counts.forks, 'fork')} (written ${imported.manifest.createdAt} by Arbor ${imported.manifest.arborVersion})`,
  ];
  if (imported.migrated) lines.push(`  migrated from schema ${imported.manifest.schemaVersion} to ${imported.schemaVersion}`);
  if (imported.replacedTo !== null) lines.push(`The store that was there is kept in ${imported.replacedTo}`);
  return `${lines.join('\n')}\n`;
}
