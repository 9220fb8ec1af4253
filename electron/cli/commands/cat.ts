import { ArborError } from '../../../shared/errors';
import { describeGhostMiss, describeUnknownReason } from '../../../shared/file-known';
import type { NodeFileContent } from '../../../shared/model';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { oneLine } from '../format';

export const catCommand: CliCommand = {
  name: 'cat',
  summary: 'Print a file’s content at a node, byte for byte',
  usage: `Usage: arbor cat NODE PATH [--replayed]

Writes PATH's content at NODE to stdout exactly (binary files too; nothing added, not even a newline).
PATH is absolute, or relative to the node's folder: the snapshot's folder for a snapshot node (see
\`arbor snapshot\`), the session's folder (its project) for a step of a transcript. \`arbor files NODE\`
lists the paths; a symlink prints its target path, as git stores it.

Exits 1, with the reason on stderr, when the file's content at NODE is not known (it says since which
step and why), when the file does not exist there, or when the state does not cover PATH: a reconstructed
state covers only the files the session touched, a snapshot only its folder.

Options:
  --replayed  For a file whose content is not known, print what replaying the transcript gives instead.
              It is NOT known to be right: the step named on stderr may have changed the file unrecorded
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { replayed: { type: 'boolean' } }, { min: 2, max: 2 });
    const nodeId = positionals[0] as string;
    const service = await context.service();
    const replayed = values.replayed === true;
    const file = await service.api['nodes.file']({ nodeId, path: positionals[1] as string, bytes: true, replayed }, { signal: context.signal });
    if (file.base64 !== undefined) {
      context.io.stdout(Buffer.from(file.base64, 'base64'));
      return 0;
    }
    if (file.exists) throw new ArborError('INTERNAL', `The content of ${file.path} came without its bytes`);
    if (file.known !== 'unknown') {
      context.io.stderr(`arbor: ${file.path} does not exist at ${nodeId}\n`);
      return 1;
    }
    if (file.notCovered === true) {
      context.io.stderr(
        `arbor: the state at ${nodeId} does not cover ${file.path}: a reconstructed state covers only the files the session touched (\`arbor files ${nodeId}\`), a snapshot only its folder\n`,
      );
      return 1;
    }
    const why = await unknownSince(file, context);
    if (replayed && typeof file.replayed === 'string') {
      context.io.stderr(`arbor: warning: this is the transcript's replay of ${file.path}, not known to be right: its content is not known ${why}\n`);
      context.io.stdout(file.replayed);
      return 0;
    }
    const replay = !replayed ? '' : file.replayed === null ? ' (the replay says it does not exist)' : ' (and there is no replay of it)';
    context.io.stderr(`arbor: the content of ${file.path} at ${nodeId} is not known ${why}${replay}\n`);
    return 1;
  },
};

/**
 * "since step ID [kind] label (reason)", or "(reason)" when no step ever told the content; with a Codex ghost
 * snapshot above that could have told it, why it did not (as `arbor files` and the Files tab say).
 */
async function unknownSince(file: NodeFileContent, context: CliContext): Promise<string> {
  const told = file.reason === undefined ? 'the reason is not recorded' : describeUnknownReason(file.reason);
  const reason = file.ghost === undefined ? told : `${told}. ${describeGhostMiss(file.ghost).replace(/\.$/, '')}`;
  if (file.unknownSince == null) return `(${reason})`;
  const service = await context.service();
  const step = await service.api['nodes.get']({ nodeId: file.unknownSince }, { signal: context.signal }).then(
    (detail) => ` [${detail.node.kind}] ${oneLine(detail.node.label, 60)}`,
    () => '', // the id alone still names the step
  );
  return `since step ${file.unknownSince}${step} (${reason})`;
}
