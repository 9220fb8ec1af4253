import type { SideEffect, SkippedPath, SkippedPathReason, WorkspaceChanges } from '../../../shared/operations';
import { plural } from '../app/format';
import type { NodeId } from '../../../shared/model';
import { EffectList, rowsOfSideEffects } from './EffectList';
import { useLedger } from './use-ledger';

const GROUPS = [
  { key: 'written', title: 'Written', mark: 'M', hint: 'contents replaced' },
  { key: 'created', title: 'Created', mark: 'A', hint: 'files that come back' },
  { key: 'deleted', title: 'Deleted', mark: 'D', hint: 'files that did not exist yet' },
] as const;

/** The written / created / deleted files of a preview or an outcome, each path exactly as it will be touched. */
export function ChangeLists({ changes, testId = 'change-lists' }: { readonly changes: WorkspaceChanges; readonly testId?: string }) {
  return (
    <div className="tt-changes" data-testid={testId}>
      {GROUPS.map(({ key, title, mark, hint }) => {
        const paths = changes[key];
        if (paths.length === 0) return null;
        return (
          <section key={key} className="tt-group" data-testid={`changes-${key}`}>
            <h3 className="tt-group__title">
              {title} <span className="tt-count">{paths.length}</span> <span className="muted tt-group__hint">{hint}</span>
            </h3>
            <ul className="tt-paths">
              {paths.map((path) => (
                <li key={path} className="tt-path">
                  <span className={`file-status file-status--${key}`} aria-hidden="true">
                    {mark}
                  </span>
                  <code>{path}</code>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

/** The files that differ from what a preview (or an operation) saw: why an operation stopped. */
export function ChangedPathList({ paths }: { readonly paths: readonly string[] }) {
  if (paths.length === 0) return null;
  return (
    <ul className="tt-paths">
      {paths.map((path) => (
        <li key={path} className="tt-path">
          <span className="file-status file-status--written" aria-hidden="true">
            !
          </span>
          <code>{path}</code>
        </li>
      ))}
    </ul>
  );
}

export function changeCount(changes: WorkspaceChanges): number {
  return changes.written.length + changes.created.length + changes.deleted.length;
}

const SKIP_REASONS: Record<SkippedPathReason, string> = {
  'unknown-content': 'its content at this node is not known',
  'outside-workspace': 'outside the workspace',
  ignored: 'ignored (.gitignore)',
  'unsafe-path': 'unsafe path (refused)',
  'too-large': 'too large to snapshot',
};

export function SkippedList({ skipped, hint = 'not touched by this rewind' }: { readonly skipped: readonly SkippedPath[]; readonly hint?: string }) {
  if (skipped.length === 0) return null;
  return (
    <section className="tt-group" data-testid="skipped">
      <h3 className="tt-group__title">
        Left alone <span className="tt-count">{skipped.length}</span> <span className="muted tt-group__hint">{hint}</span>
      </h3>
      <ul className="tt-paths">
        {skipped.map((entry) => (
          <li key={entry.path} className="tt-path">
            <span className="file-status file-status--skipped" aria-hidden="true">
              –
            </span>
            <code>{entry.path}</code>
            <span className="tt-reason" data-reason={entry.reason}>
              {SKIP_REASONS[entry.reason]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Steps whose effects outside the workspace stay, whatever the rewind writes. With `nodeId`, the ledger of the
 * branch through it adds each step's outcome and marks possible double effects.
 */
export function SideEffectList({ effects, intro, nodeId }: { readonly effects: readonly SideEffect[]; readonly intro: string; readonly nodeId?: NodeId }) {
  if (nodeId !== undefined && effects.length > 0) return <LedgerSideEffectList effects={effects} intro={intro} nodeId={nodeId} />;
  return <EffectList rows={rowsOfSideEffects(effects)} intro={intro} />;
}

function LedgerSideEffectList({ effects, intro, nodeId }: { readonly effects: readonly SideEffect[]; readonly intro: string; readonly nodeId: NodeId }) {
  const state = useLedger(nodeId);
  return <EffectList rows={rowsOfSideEffects(effects, state.status === 'ready' ? state.ledger.entries : [])} intro={intro} />;
}

export function summarizeChanges(changes: WorkspaceChanges): string {
  const parts: string[] = [];
  if (changes.written.length > 0) parts.push(`${changes.written.length} written`);
  if (changes.created.length > 0) parts.push(`${changes.created.length} created`);
  if (changes.deleted.length > 0) parts.push(`${changes.deleted.length} deleted`);
  return parts.length === 0 ? 'no files' : `${plural(changeCount(changes), 'file')} (${parts.join(', ')})`;
}
