import { resolve } from 'node:path';
import type { MergeFileEntry, MergePreview } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { plural } from '../format';
import { describeContinued } from './continue-merge';

export const mergeCommand: CliCommand = {
  name: 'merge',
  summary: 'Three-way merge of two nodes\u2019 files into a folder (journaled, undoable)',
  usage: `Usage: arbor merge NODE_A NODE_B [--into DIR] [--dry-run] [--json] [--ours | --theirs] [--continue]

Merges NODE_B ("theirs") into NODE_A ("ours") with the files at their lowest common ancestor node as the
base. A fork node stands for its folder as it is now. The result is written to DIR (default: ours'
workspace) through the operation journal: a safety snapshot first, then the writes, then a merge node with
two parents in the session's graph. Undo it like any other operation.

When conflicts remain, nothing is written and the command exits 1 listing the conflicted files, unless
--ours or --theirs settles them: conflicting hunks take that side (clean changes of both sides stay), files
that cannot be mixed (binary, modify/delete, symlinks) take that side's version.

Options:
  --into DIR  The folder to write the merge into
  --dry-run   List the files and their statuses; write nothing (exits 1 if conflicts would stop the merge)
  --ours      Settle every conflict with ours
  --theirs    Settle every conflict with theirs
  --continue  Then continue from the merge (see \`arbor continue-merge --help\`): a resumable transcript of
              ours' conversation plus a summary of theirs, for the merged folder
  --json      Print the preview (with --dry-run) or the outcome as JSON
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { into: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' }, ours: { type: 'boolean' }, theirs: { type: 'boolean' }, continue: { type: 'boolean' } },
      { min: 2, max: 2 },
    );
    if (values.ours === true && values.theirs === true) throw new UsageError('--ours and --theirs exclude each other');
    if (values.continue === true && values['dry-run'] === true) throw new UsageError('--continue needs a merge: not with --dry-run');
    const conflictSide = values.ours === true ? 'ours' : values.theirs === true ? 'theirs' : undefined;
    const { io, signal } = context;
    const service = await context.service();
    const preview = await service.api['merge.preview'](
      { nodeIdA: positionals[0] as string, nodeIdB: positionals[1] as string, ...(values.into === undefined ? {} : { into: resolve(io.cwd, values.into) }) },
      { signal },
    );
    const blocked = preview.conflicted > 0 && conflictSide === undefined;

    if (values['dry-run'] === true) {
      if (values.json === true) io.stdout(`${JSON.stringify(preview)}\n`);
      else io.stdout(describePreview(preview, conflictSide));
      return blocked ? 1 : 0;
    }

    const outcome = await service.api['merge.apply']({ token: preview.token, resolutions: [], ...(conflictSide === undefined ? {} : { conflictSide }) }, { signal });
    const continued = outcome.status === 'applied' && values.continue === true ? await service.api['merge.continue']({ operation: outcome.operation }, { signal }) : null;
    if (values.json === true) io.stdout(`${JSON.stringify(continued === null ? outcome : { ...outcome, continued })}\n`);
    switch (outcome.status) {
      case 'conflicts':
        io.stderr(`${plural(outcome.files.length, 'file')} still conflicted; nothing was written:\n${outcome.files.map((path) => `  ${path}\n`).join('')}` +
          'Resolve them in the merge view, or settle them with --ours or --theirs.\n');
        return 1;
      case 'workspace-changed':
        io.stderr(`${preview.into} changed while merging; nothing was written:\n${outcome.changed.map((path) => `  ${path}\n`).join('')}`);
        return 1;
      case 'applied':
        if (values.json !== true) {
          io.stdout(
            `Merged into ${outcome.workspace}: ${outcome.written.length} written, ${outcome.created.length} created, ${outcome.deleted.length} deleted\n` +
              `Merge node: ${outcome.mergeNode}\nOperation:  ${outcome.operation} (undo restores every file)\n`,
          );
          if (continued !== null) io.stdout(describeContinued(continued));
        }
        return 0;
    }
  },
};

function describePreview(preview: MergePreview, conflictSide: 'ours' | 'theirs' | undefined): string {
  const lines = preview.files.map(describeEntry);
  const settled = conflictSide === undefined ? '' : ` (settled with ${conflictSide})`;
  lines.push(
    `Base: ${preview.base ?? '(no common ancestor: empty)'}`,
    `Into: ${preview.into}`,
    `${plural(preview.files.length, 'file')}, ${preview.conflicted} conflicted${preview.conflicted > 0 ? settled : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

const STATUS_LETTER = { clean: 'M', added: 'A', deleted: 'D', conflicted: 'C' } as const;

function describeEntry(entry: MergeFileEntry): string {
  const notes: string[] = [`by ${entry.changedBy}`];
  if (entry.renamedFrom !== undefined) notes.push(`renamed from ${entry.renamedFrom}`);
  if (entry.conflict !== undefined) notes.push(entry.conflicts > 0 ? `${entry.conflict} conflict, ${plural(entry.conflicts, 'hunk')}` : `${entry.conflict} conflict`);
  if (entry.binary === true) notes.push('binary');
  return `${STATUS_LETTER[entry.status]} ${entry.path} (${notes.join(', ')})`;
}
