import type { FileChangeStatus, NodeFiles, WorkspaceStateKnown } from '../../../shared/model';
import { assertNever } from '../../../shared/errors';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { oneLine, plural } from '../format';

export const filesCommand: CliCommand = {
  name: 'files',
  summary: 'List the workspace files at a node and how their state is known',
  usage: `Usage: arbor files NODE [--json]

NODE is a full node id (see \`arbor show SESSION --json\`) or a snapshot node (see \`arbor snapshot\`).
A node's state is exact (a snapshot of the whole folder), reconstructed (only the files the session
touched, rebuilt from the transcript) or unknown (a step may have changed files unrecorded).

Options:
  --json      Print {"node","known","changed":[{path,status}],"files":[{path,status?,unknown?}],"unknownSince"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const files = await service.api['nodes.files']({ nodeId: positionals[0] as string }, { signal: context.signal });
    context.io.stdout(values.json === true ? `${JSON.stringify(files)}\n` : describeFiles(files));
    return 0;
  },
};

export function describeKnown(known: WorkspaceStateKnown): string {
  switch (known) {
    case 'exact':
      return 'exact (a snapshot of the whole folder)';
    case 'reconstructed':
      return 'reconstructed (only the files the session touched)';
    case 'unknown':
      return 'unknown (files may have changed in ways the transcript does not record)';
    default:
      return assertNever(known, 'state');
  }
}

export function statusLetter(status: FileChangeStatus): string {
  switch (status) {
    case 'added':
      return 'A';
    case 'modified':
      return 'M';
    case 'deleted':
      return 'D';
    default:
      return assertNever(status, 'status');
  }
}

function describeFiles(result: NodeFiles): string {
  const lines = [
    `Node:    ${result.node.id}  [${result.node.kind}] ${oneLine(result.node.label, 80)}`,
    `State:   ${describeKnown(result.known)}${result.unknownSince === null ? '' : `, since ${result.unknownSince}`}`,
    `Changed: ${plural(result.changed.length, 'file')}`,
    ...result.changed.map((change) => `  ${statusLetter(change.status)} ${change.path}${change.binary === true ? ' (binary)' : ''}`),
    `Files:   ${result.files.length}`,
    ...result.files.map((file) => `  ${file.path}${file.unknown === true ? ' (content unknown)' : ''}`),
  ];
  return `${lines.join('\n')}\n`;
}
