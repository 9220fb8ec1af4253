import { resolve } from 'node:path';
import { assertNever } from '../../../shared/errors';
import { describeUnknownReason } from '../../../shared/file-known';
import type { OperationOutcome, RewindPreview, SideEffect, SkippedPathReason, WorkspaceChanges } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand, type CliIO } from '../command';
import { oneLine, plural } from '../format';
import { describeKnown } from './files';

export const rewindCommand: CliCommand = {
  name: 'rewind',
  summary: 'Put a workspace back to its state at a node (previewed, journaled, undoable)',
  usage: `Usage: arbor rewind NODE [--workspace DIR] [--dry-run | --expect TOKEN] [--json]

Rewrites the files of DIR (default: the snapshot's folder for snapshot nodes, else the folder the
session ran in) to their state at NODE: for an exact snapshot, every non-ignored file; for a
reconstructed state, only the files the session touched. Ignored files (.gitignore, .git/info/exclude,
the global core.excludesFile), paths outside the workspace, names git refuses (.GIT, git~1, …) and
files whose content at NODE is unknown are left alone and listed. What the replaced files held is
stored first: \`arbor undo OPERATION\` puts it back. Side effects since NODE (git push, network,
publishing, database, MCP calls) cannot be undone; they are listed.

A dry run prints a preview token. \`--expect TOKEN\` applies only that plan: if the workspace (or
the node's state) no longer gives the same plan, nothing is written and the rewind stops with
"the workspace changed since the preview".

Options:
  --workspace DIR   The folder to rewind
  --dry-run         Only show what would change, and the preview's token
  --expect TOKEN    Rewind only if the plan is still the one the dry run with this token showed
  --json            Print {"operation","written","created","deleted","sideEffects","skipped","token"}
                    (operation is null with --dry-run; {"status":"workspace-changed","changed"}
                    when the workspace changed)
  -h, --help        Show this help

Exit status: 0 rewound (or dry run), 1 when the workspace changed since the preview or on error.`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { workspace: { type: 'string' }, 'dry-run': { type: 'boolean' }, expect: { type: 'string' }, json: { type: 'boolean' } },
      { min: 1, max: 1 },
    );
    if (values['dry-run'] === true && values.expect !== undefined) throw new UsageError('--dry-run and --expect do not go together');
    if (values.expect !== undefined && !/^[0-9a-f]{32}$/.test(values.expect)) throw new UsageError('--expect needs the token a dry run printed');
    const { io, signal } = context;
    const nodeId = positionals[0] as string;
    const workspace = values.workspace === undefined ? undefined : resolve(io.cwd, values.workspace);
    const request = { nodeId, ...(workspace === undefined ? {} : { workspace }) };
    const service = await context.service();
    const preview = await service.api['rewind.preview'](request, { signal });
    if (values['dry-run'] === true) {
      if (values.json === true) io.stdout(`${JSON.stringify(rewindJson(null, preview, preview))}\n`);
      else io.stdout(`${describePreview(preview)}Preview token: ${preview.token} (apply exactly this plan: arbor rewind ${nodeId} --expect ${preview.token})\nDry run: nothing was written.\n`);
      return 0;
    }
    // --expect: the plan made now must be the one the dry run showed. Which file differs cannot be told from
    // a token, so every path the rewind would now touch is reported (as the service does for a foreign token).
    const outcome: OperationOutcome =
      values.expect !== undefined && values.expect !== preview.token
        ? { status: 'workspace-changed', changed: [...preview.written, ...preview.created, ...preview.deleted].sort() }
        : await service.api['rewind.apply']({ ...request, token: preview.token }, { signal });
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
    unverified: preview.unverified,
    token: preview.token,
  };
}

export function reportChanged(io: CliIO, changed: readonly string[]): void {
  if (changed.length === 0) {
    io.stderr('arbor: the workspace changed since the preview; nothing was written\n');
    return;
  }
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
  if (preview.unverified.length > 0) {
    // The replay is written (undo restores the file byte for byte), but the user sees it is not verified first.
    lines.push(
      `Warning: written from the transcript's replay, not verified (${preview.unverified.length}):`,
      ...preview.unverified.map((file) => `  ! ${file.path}  (since ${file.since ?? 'the start'}: ${describeUnknownReason(file.reason)})`),
    );
  }
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
      return 'content at the node unknown, or its replay known to be stale';
    case 'outside-workspace':
      return 'outside the workspace';
    case 'ignored':
      return 'ignored by .gitignore';
    case 'unsafe-path':
      return 'unsafe path: .git or a name git refuses (.GIT, git~1, …), a symlinked folder, or unreadable';
    case 'too-large':
      return 'too large to snapshot';
    default:
      return assertNever(reason, 'reason');
  }
}
