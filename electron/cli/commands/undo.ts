import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { plural } from '../format';
import { reportChanged } from './rewind';

export const undoCommand: CliCommand = {
  name: 'undo',
  summary: 'Undo a rewind or merge, restoring the files it replaced byte for byte',
  usage: `Usage: arbor undo OPERATION [--json]

Puts back every file the operation (see \`arbor operations\`) wrote, created or deleted, as it was
before. Stops without writing when a file changed since the operation.

Options:
  --json      Print {"status","operation","kind","workspace","written","created","deleted","sideEffects"}
  -h, --help  Show this help

Exit status: 0 undone, 1 when the workspace changed since the operation or on error.`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const outcome = await service.api['operations.undo']({ operationId: positionals[0] as string }, { signal: context.signal });
    if (values.json === true) context.io.stdout(`${JSON.stringify(outcome)}\n`);
    if (outcome.status === 'workspace-changed') {
      reportChanged(context.io, outcome.changed);
      return 1;
    }
    if (values.json !== true) {
      const total = outcome.written.length + outcome.created.length + outcome.deleted.length;
      context.io.stdout(`Undid ${positionals[0]}: ${plural(total, 'file')} restored in ${outcome.workspace} (operation ${outcome.operation})\n`);
    }
    return 0;
  },
};
