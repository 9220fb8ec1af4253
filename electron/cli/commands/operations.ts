import { resolve } from 'node:path';
import { integerOption, parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { formatDate, table } from '../format';

export const operationsCommand: CliCommand = {
  name: 'operations',
  summary: 'List the rewinds, merges and undos Arbor ran, newest first',
  usage: `Usage: arbor operations [--workspace DIR] [--limit N] [--json]

Options:
  --workspace DIR  Only operations on this folder
  --limit N        At most N operations (default 200)
  --json           Print {"operations":[{operation,kind,status,workspace,nodeId,undoes,createdAt,written,created,deleted}]}
  -h, --help       Show this help`,
  async run(args, context) {
    const { values } = parseCommandArgs(args, { workspace: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } }, { min: 0, max: 0 });
    const limit = integerOption('limit', values.limit, { min: 1, max: 10_000 });
    const request = {
      ...(values.workspace === undefined ? {} : { workspace: resolve(context.io.cwd, values.workspace) }),
      ...(limit === undefined ? {} : { limit }),
    };
    const service = await context.service();
    const { operations } = await service.api['operations.list'](request, { signal: context.signal });
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify({ operations })}\n`);
      return 0;
    }
    if (operations.length === 0) {
      context.io.stdout('No operations yet.\n');
      return 0;
    }
    const rows = operations.map((op) => [
      op.operation,
      op.kind,
      op.status,
      formatDate(op.createdAt),
      `${op.written.length}/${op.created.length}/${op.deleted.length}`,
      op.undoes ?? op.nodeId ?? '-',
      op.workspace,
    ]);
    context.io.stdout(table(['OPERATION', 'KIND', 'STATUS', 'WHEN (UTC)', 'M/A/D', 'NODE / UNDOES', 'WORKSPACE'], rows));
    return 0;
  },
};
