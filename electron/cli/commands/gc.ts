import { GC_SCHEDULES, type GcReport, type GcSchedule } from '../../../shared/forget';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { plural } from '../format';

export const gcCommand: CliCommand = {
  name: 'gc',
  summary: 'Prune unreachable snapshot objects, expired temporary forks and orphan forks',
  usage: `Usage: arbor gc [--dry-run] [--orphans] [--json]
       arbor gc --schedule daily|weekly|off

Prunes the snapshot objects no snapshot, fork or journal entry reaches and rewrites the packs without them,
removes forks marked temporary (arbor fork --temporary) once their time to live is over, and lists orphan
forks: forks whose folder was deleted by hand. Prints what it reclaimed.

Options:
  --dry-run   Change nothing; say what a run would reclaim
  --orphans   Also remove the orphan forks' records, branches and transcripts
  --schedule  How often the app runs gc in the background (default weekly); prints the next run
  --json      Print {"dryRun","reclaimed":{bytes,objects,folders},"orphans":[…],"orphansRemoved":[…],"expired":[…],"problems":[…]}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values } = parseCommandArgs(
      args,
      { 'dry-run': { type: 'boolean' }, orphans: { type: 'boolean' }, json: { type: 'boolean' }, schedule: { type: 'string' } },
      { min: 0, max: 0 },
    );
    const service = await context.service();
    if (values.schedule !== undefined) {
      if (!(GC_SCHEDULES as readonly string[]).includes(values.schedule)) throw new UsageError(`--schedule is one of ${GC_SCHEDULES.join(', ')}`);
      const state = await service.api['store.gcSchedule']({ schedule: values.schedule as GcSchedule }, { signal: context.signal });
      context.io.stdout(values.json === true ? `${JSON.stringify(state)}\n` : `gc runs ${state.schedule === 'off' ? 'never' : state.schedule}${state.nextRun === null ? '' : `; next run ${state.nextRun}`}\n`);
      return 0;
    }
    const report = await service.api['store.gc']({ dryRun: values['dry-run'] === true, orphans: values.orphans === true }, { signal: context.signal });
    context.io.stdout(values.json === true ? `${JSON.stringify(report)}\n` : describeReport(report));
    for (const problem of report.problems) context.io.stderr(`arbor: ${problem}\n`);
    return 0;
  },
};

function describeReport(report: GcReport): string {
  const verb = report.dryRun ? 'Would reclaim' : 'Reclaimed';
  const lines = [`${verb} ${formatBytes(report.reclaimed.bytes)}: ${plural(report.reclaimed.objects, 'snapshot object')}, ${plural(report.reclaimed.folders, 'folder')}.`];
  if (report.expired.length > 0) lines.push(`${report.dryRun ? 'Would remove' : 'Removed'} ${plural(report.expired.length, 'expired temporary fork')}: ${report.expired.join(' ')}`);
  for (const orphan of report.orphans) {
    const removed = report.orphansRemoved.includes(orphan.fork);
    lines.push(`Orphan fork ${orphan.fork} (folder ${orphan.dir} is gone)${removed ? ': removed' : ''}`);
  }
  if (report.orphans.length > report.orphansRemoved.length && !report.dryRun) lines.push('Remove orphan forks with: arbor gc --orphans');
  return `${lines.join('\n')}\n`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
