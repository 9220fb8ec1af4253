import { resolve } from 'node:path';
import { assertNever } from '../../../shared/errors';
import { describeImportLines } from '../../../shared/import-lines';
import type { ImportProgress, ImportReport } from '../../../shared/model';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { plural } from '../format';

const MAX_PROBLEMS_SHOWN = 20;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import transcripts (default: every known location, e.g. ~/.claude/projects)',
  usage: `Usage: arbor import [PATH...] [--include-deleted] [--json]

Imports agent transcripts into Arbor's store. PATH may be a transcript file or a folder searched for
transcripts; with no PATH, the default locations are imported (see below). Importing again only reads
what changed. Every line is accounted for: imported as a node or a record, kept but not modelled yet
(\`arbor doctor\` lists those), kept as written with a problem, unreadable, or an incomplete last line
read once it is complete. A path that cannot
be imported at all (missing, unreadable, a FIFO, socket or device) is reported and the exit status is 1.
Another import on the same data folder (\`arbor serve\`, the app) is waited for.

Options:
  --include-deleted  Import again the transcripts of sessions deleted with \`arbor delete\` (skipped otherwise)
  --json      Print the report as JSON: {"sessions":[{"id","source","files","nodes"}],"problems":[{"file","line","reason","notImported"?}],
              "lines":{"nodes","records","notModelled","keptWithProblem","unreadable","incomplete"}}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, 'include-deleted': { type: 'boolean' } }, { min: 0, max: Infinity });
    const { io, signal } = context;
    const service = await context.service();
    const paths = positionals.map((p) => resolve(io.cwd, p));
    if (paths.length === 0 && io.interactive) {
      const { locations } = await service.api['import.locations']({}, { signal });
      for (const location of locations) io.stderr(`Looking in ${location.path}${location.exists ? '' : ' (not found)'}\n`);
    }
    const stopProgress = io.interactive ? showProgress(context) : () => undefined;
    let report: ImportReport;
    try {
      report = await service.api['import.run']({ ...(paths.length > 0 ? { paths } : {}), ...(values['include-deleted'] === true ? { includeDeleted: true } : {}) }, { signal });
      // Full-text indexing runs in the background; finish it so `arbor search` right after sees everything.
      await service.idle();
    } finally {
      stopProgress();
    }
    if (values.json === true) io.stdout(`${JSON.stringify({ sessions: report.sessions, problems: report.problems, ...(report.lines ? { lines: report.lines } : {}) })}\n`);
    else io.stdout(summarize(report));
    // A path that was not imported at all (missing, refused, unreadable) is a failure, not a skipped line.
    const notImported = report.problems.filter((problem) => problem.notImported === true).length;
    if (notImported === 0) return 0;
    io.stderr(`arbor: ${plural(notImported, 'path')} not imported (see the problems above)\n`);
    return 1;
  },
};

function summarize(report: ImportReport): string {
  const nodes = report.sessions.reduce((sum, s) => sum + s.nodes, 0);
  const files = report.sessions.reduce((sum, s) => sum + s.files, 0);
  const lines = [
    report.sessions.length === 0
      ? 'No sessions imported.'
      : `Imported ${plural(report.sessions.length, 'session')} (${plural(nodes, 'node')}) from ${plural(files, 'file')}.`,
  ];
  if (report.lines) lines.push(...describeImportLines(report.lines).map((line) => `  ${line}`));
  if (report.problems.length > 0) {
    lines.push(`${plural(report.problems.length, 'problem')} reported:`);
    for (const p of report.problems.slice(0, MAX_PROBLEMS_SHOWN)) lines.push(`  ${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.reason}`);
    if (report.problems.length > MAX_PROBLEMS_SHOWN) lines.push(`  … and ${report.problems.length - MAX_PROBLEMS_SHOWN} more (see --json)`);
  }
  return `${lines.join('\n')}\n`;
}

/** One self-overwriting progress line on stderr, at most a few times a second. */
function showProgress(context: CliContext): () => void {
  let last = 0;
  let shown = false;
  let unsubscribe: (() => void) | undefined;
  void context.service().then((service) => {
    unsubscribe = service.events.on('import.progress', (progress: ImportProgress) => {
      const now = Date.now();
      if (now - last < 200 && progress.phase !== 'done') return;
      last = now;
      shown = true;
      context.io.stderr(`\r\x1b[K${describeProgress(progress)}`);
    });
  });
  return () => {
    unsubscribe?.();
    if (shown) context.io.stderr('\r\x1b[K');
  };
}

function describeProgress(p: ImportProgress): string {
  const percent = p.bytesTotal > 0 ? ` ${Math.floor((100 * p.bytesDone) / p.bytesTotal)}%` : '';
  switch (p.phase) {
    case 'discover':
      return `Finding transcripts… ${plural(p.filesTotal, 'file')}`;
    case 'import':
      return `Importing ${p.filesDone}/${p.filesTotal} files${percent}`;
    case 'index':
      return 'Indexing for search…';
    case 'done':
      return 'Done.';
    default:
      return assertNever(p.phase, 'import phase');
  }
}
