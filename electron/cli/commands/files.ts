import type { FileChangeStatus, NodeFileEntry, NodeFiles, WorkspaceStateKnown } from '../../../shared/model';
import { assertNever } from '../../../shared/errors';
import { describeGhostMiss, describeUnknownReason } from '../../../shared/file-known';
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
Each file says how its own content is known; the listing marks one that is not with "?" and gives its
size in bytes otherwise (A/M/D: the node added, modified or deleted it). \`arbor cat NODE PATH\` prints one.

Options:
  --json      Print {"node","known","changed":[{path,status,binary?}],"unknownSince","files":[…]}, each file
              {path,status?,known:"exact"|"reconstructed",oid,size} or {path,status?,known:"unknown",
              unknownSince,reason,ghost?,unknown:true}. oid is the git blob id (\`git hash-object\`; a symlink's
              is that of its target path, as git stores links), size in bytes; unknownSince is the step
              from which the content is not known (null: no step on the path ever told it); ghost: a
              Codex ghost snapshot above that could have told it, {commit,why,folder,detail?}
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
  const unknown = result.files.filter((file) => file.known === 'unknown').length;
  const sizeWidth = result.files.reduce((width, file) => Math.max(width, file.known === 'unknown' ? 1 : String(file.size).length), 1);
  const lines = [
    `Node:    ${result.node.id}  [${result.node.kind}] ${oneLine(result.node.label, 80)}`,
    `State:   ${describeKnown(result.known)}${result.unknownSince === null ? '' : `, since ${result.unknownSince}`}`,
    `Changed: ${plural(result.changed.length, 'file')}`,
    ...result.changed.map((change) => `  ${statusLetter(change.status)} ${change.path}${change.binary === true ? ' (binary)' : ''}`),
    `Files:   ${result.files.length}${unknown === 0 ? '' : `, ${unknown} not known (?)`}`,
    ...result.files.map((file) => fileLine(file, sizeWidth, result.unknownSince)),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `  M?   1234  /path`: what the node did to it, whether its content is known, its size. The step an unknown
 * file is not known since is named only when it is not the state's (the State line names that one).
 */
function fileLine(file: NodeFileEntry, sizeWidth: number, stateUnknownSince: string | null): string {
  const mark = `${file.status === undefined ? ' ' : statusLetter(file.status)}${file.known === 'unknown' ? '?' : ' '}`;
  const size = (file.known === 'unknown' ? '-' : String(file.size)).padStart(sizeWidth);
  if (file.known !== 'unknown') return `  ${mark} ${size}  ${file.path}`;
  const since = file.unknownSince === null || file.unknownSince === stateUnknownSince ? '' : ` since ${file.unknownSince}`;
  // A Codex ghost snapshot above could have told it: why it did not, as the Files tab says (issue 15).
  const ghost = file.ghost === undefined ? '' : `. ${describeGhostMiss(file.ghost).replace(/\.$/, '')}`;
  return `  ${mark} ${size}  ${file.path}  (not known${since}: ${describeUnknownReason(file.reason)}${ghost})`;
}
