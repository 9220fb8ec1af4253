import { DEPENDANT_KINDS, type SessionDeleteOutcome, type SessionDeletePlan } from '../../../shared/forget';
import { parseCommandArgs } from '../args';
import { type CliCommand } from '../command';
import { plural } from '../format';
import { formatBytes } from './gc';

export const deleteCommand: CliCommand = {
  name: 'delete',
  summary: 'Delete sessions and every trace of them from the store',
  usage: `Usage: arbor delete SESSION... [--forks] [--yes] [--json]

Removes every trace of each session from Arbor's data folder: its rows, raw lines and search entries,
the snapshots only it reaches (pruned from the snapshot store), and the bytes SQLite and git keep after a
deletion (free pages, WAL, old packs). Without --yes it only lists what would go.

A session that others go on from (a fork's or a continuation's first steps are stored in it) is not deleted
alone: the command names them and stops. --forks deletes them too, with the folders of Arbor forks (only
folders Arbor created) and their resumable transcripts.

A transcript still on disk is remembered as deleted, so the next import does not bring it back;
\`arbor import --include-deleted\` does.

Options:
  --forks     Also delete the sessions that go on from these, and the forks' folders and transcripts
  --yes       Delete (without it: a dry run)
  --json      Print the outcome: {"status":"preview"|"has-dependants"|"deleted","plan":{…},…}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { forks: { type: 'boolean' }, yes: { type: 'boolean' }, json: { type: 'boolean' } }, { min: 1, max: 1000 });
    const service = await context.service();
    const outcome = await service.api['sessions.delete'](
      { sessionIds: [...positionals], withForks: values.forks === true, dryRun: values.yes !== true },
      { signal: context.signal },
    );
    if (values.json === true) context.io.stdout(`${JSON.stringify(outcome)}\n`);
    else context.io.stdout(describeOutcome(outcome));
    for (const id of outcome.plan.missing) context.io.stderr(`arbor: no session ${id}\n`);
    if (outcome.status === 'has-dependants') {
      const names = outcome.plan.dependants.map((d) => `${d.sessionId} (${d.kind} of ${d.of})`).join(', ');
      context.io.stderr(`arbor: not deleted: ${names} go${outcome.plan.dependants.length === 1 ? 'es' : ''} on from it; add --forks to delete them too\n`);
      return 1;
    }
    if (outcome.status === 'deleted') for (const problem of outcome.problems) context.io.stderr(`arbor: ${problem}\n`);
    return outcome.plan.missing.length > 0 ? 1 : 0;
  },
};

export function describePlan(plan: SessionDeletePlan): string {
  const lines = [
    `  ${plural(plan.sessionIds.length, 'session')}: ${plan.sessionIds.join(' ') || '-'}`,
    `  ${plural(plan.nodes, 'node')} and ${plural(plan.records, 'record')} (${formatBytes(plan.rawBytes)} of raw lines)`,
    `  ${plural(plan.indexEntries, 'search index entry', 'search index entries')}`,
    `  ${plural(plan.snapshots, 'snapshot')} (their objects, unless another session reaches them)`,
    `  ${plural(plan.operations, 'journal entry', 'journal entries')}`,
  ];
  if (plan.dependants.length > 0) {
    const goes = plan.dependants.length === 1 ? 'goes' : 'go';
    const it = plan.sessionIds.length === 1 ? 'it' : 'them';
    lines.push(`  ${plural(plan.dependants.length, 'session')} ${goes} on from ${it} (their first steps are stored in ${it}):`);
    for (const dependant of plan.dependants) lines.push(`    ${dependant.sessionId}  ${dependant.title}  (${dependantNote(dependant, plan.sessionIds.length)})`);
  }
  for (const fork of plan.forks) lines.push(`  fork ${fork.fork}: ${fork.dir}${fork.dirCreated ? '' : ' (existed before the fork: kept)'}${fork.transcript ? `, ${fork.transcript}` : ''}`);
  const onDisk = plan.files.filter((file) => file.onDisk);
  if (onDisk.length > 0) {
    lines.push(`  ${plural(onDisk.length, 'transcript')} still on disk: remembered as deleted, so the next import skips ${onDisk.length === 1 ? 'it' : 'them'}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The dialog's words; with several sessions asked for, "it" names the one this goes on from. */
function dependantNote(dependant: SessionDeletePlan['dependants'][number], asked: number): string {
  const note = DEPENDANT_KINDS[dependant.kind] ?? `${dependant.kind} it`;
  return asked === 1 ? note : note.replace(/\bit$/, dependant.of);
}

function describeOutcome(outcome: SessionDeleteOutcome): string {
  switch (outcome.status) {
    case 'preview':
      // Alone, --yes would be refused: say what would be, rather than a command that fails.
      return outcome.plan.dependants.length > 0
        ? `Would delete:\n${describePlan(outcome.plan)}Not deleted alone: run again with --forks --yes to delete ${outcome.plan.dependants.length === 1 ? 'it' : 'them'} too.\n`
        : `Would delete:\n${describePlan(outcome.plan)}Run again with --yes to delete.\n`;
    case 'has-dependants':
      return `Would delete:\n${describePlan(outcome.plan)}`;
    case 'deleted':
      return (
        `Deleted:\n${describePlan(outcome.plan)}` +
        `Reclaimed ${formatBytes(outcome.reclaimed.bytes)}, ${plural(outcome.reclaimed.objects, 'snapshot object')}, ${plural(outcome.reclaimed.folders, 'folder')}.\n`
      );
  }
}
