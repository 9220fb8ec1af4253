import { resolve } from 'node:path';
import { assertNever } from '../../../shared/errors';
import type { RewindPreview, SideEffect, SkippedPathReason, WorkspaceChanges } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliIO } from '../command';
import { oneLine, plural } from '../format';
import { describeKnown } from './files';

export const rewindCommand: CliCommand = {
  name: 'rewind',
  summary: 'Put a workspace back to its state at a node (previewed, journaled, undoable)',
  usage: `Usage: arbor rewind NODE [--workspace DIR] [--dry-run] [--json]

Rewrites the files of DIR (default: the snapshot's folder for snapshot nodes, else the folder the
session ran in) to their state at NODE: for an exact snapshot, every non-ignored file; for a
reconstructed state, only the files the session touched. Ignored files, paths outside the workspace,
and files whose content at NODE is unknown are left alone and listed. What the replaced files held is
stored first: \`arbor undo OPERATION\` puts it back. Side effects since NODE (git push, network,
publishing, database, MCP calls) cannot be undone; they are listed.

Options:
  --workspace DIR  The folder to rewind
  --dry-run        Only show what would change
  --json           Print {"operation","written","created","deleted","sideEffects","skipped"}
                   (operation is null with --dry-run)
  -h, --help       Show this help

Exit status: 0 rewound (or dry run), 1 when the workspace changed during the rewind or on error.`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { workspace: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    const { io, signal } = context;
    const nodeId = positionals[0] as string;
    const workspace = values.workspace === undefined ? undefined : resolve(io.cwd, values.workspace);
    const request = { nodeId, ...(workspace === undefined ? {} : { workspace }) };
    const service = await context.service();
    const preview = await service.api['rewind.preview'](request, { signal });
    if (values['dry-run'] === true) {
      if (values.json === true) io.stdout(`${JSON.stringify(rewindJson(null, preview, preview))}\n`);
      else io.stdout(`${describePreview(preview)}Dry run: nothing was written.\n`);
      return 0;
    }
    const outcome = await service.api['rewind.apply']({ ...request, token: preview.token }, { signal });
    if (outcome.status === 'workspace-changed') {
      if (values.json === true) io.stdout(`${JSON.stringify(outcome)}\n`);
      reportChanged(io, outcome.changed);
      return 1;
    }
    if (values.json === true) {
      io.stdout(`${JSON.stringify(rewindJson(outcome.operation, outcome, preview))}\n`);
      return 0;
    }
    const total = outcome.written.length + outcome.created.length + outcome.deleted.length;
    io.stdout(
      `${describePreview(preview)}` +
        (total === 0
          ? `Nothing to change: the workspace already matches the node (operation ${outcome.operation}).\n`
          : `Rewound ${plural(total, 'file')} (operation ${outcome.operation}). Undo with: arbor undo ${outcome.operation}\n`),
    );
    return 0;
  },
};

function rewindJson(operation: string | null, changes: WorkspaceChanges, preview: RewindPreview) {
  return {
    operation,
    written: changes.written,
    created: changes.created,
    deleted: changes.deleted,
    sideEffects: preview.sideEffects,
    skipped: preview.skipped,
  };
}

export function reportChanged(io: CliIO, changed: readonly string[]): void {
  const shown = changed.slice(0, 5).join(', ');
  const more = changed.length > 5 ? `, … (${changed.length - 5} more)` : '';
  io.stderr(`arbor: the workspace changed since the preview (${plural(changed.length, 'file')}: ${shown}${more}); nothing was written\n`);
}

function describePreview(preview: RewindPreview): string {
  const lines = [`Workspace: ${preview.workspace}`, `Node:      ${preview.nodeId}`, `State:     ${describeKnown(preview.known)}`];
  const section = (title: string, letter: string, paths: readonly string[]) => {
    if (paths.length > 0) lines.push(`${title} (${paths.length}):`, ...paths.map((path) => `  ${letter} ${path}`));
  };
  section('Written', 'M', preview.written);
  section('Created', 'A', preview.created);
  section('Deleted', 'D', preview.deleted);
  if (preview.skipped.length > 0) {
    lines.push(`Left alone (${preview.skipped.length}):`, ...preview.skipped.map((skip) => `  ${skip.path}  (${describeReason(skip.reason)})`));
  }
  if (preview.sideEffects.length > 0) {
    lines.push(`Side effects since this node, which a rewind cannot undo (${preview.sideEffects.length}):`, ...preview.sideEffects.map(describeSideEffect));
  } else {
    lines.push('Side effects since this node: none recorded');
  }
  return `${lines.join('\n')}\n`;
}

function describeSideEffect(effect: SideEffect): string {
  return `  ${effect.kind.padEnd(10)} ${effect.tool}: ${oneLine(effect.summary, 100)}`;
}

function describeReason(reason: SkippedPathReason): string {
  switch (reason) {
    case 'unknown-content':
      return 'content at the node unknown';
    case 'outside-workspace':
      return 'outside the workspace';
    case 'ignored':
      return 'ignored by .gitignore';
    case 'unsafe-path':
      return 'unsafe path: .git, symlinked folder or unreadable';
    case 'too-large':
      return 'too large to snapshot';
    default:
      return assertNever(reason, 'reason');
  }
}
