import { useStore } from 'zustand';
import type { MergeFileEntry, MergePreview } from '../../../shared/operations';
import { FILE_STATUS_LABELS, fileConflictsLeft, fileSettled, orderFiles } from './merge-files';
import type { MergeSession } from './merge-session';

const CHANGED_BY: Readonly<Record<MergeFileEntry['changedBy'], string>> = { ours: 'ours', theirs: 'theirs', both: 'both' };

export function FileStatusBadges({ entry }: { entry: MergeFileEntry }) {
  return (
    <span className="merge-badges">
      <span className={`badge merge-status merge-status--${entry.status}`} data-testid="file-status">
        {FILE_STATUS_LABELS[entry.status]}
      </span>
      {entry.conflict !== undefined && entry.conflict !== 'content' ? <span className="badge badge--missing">{entry.conflict}</span> : null}
      {entry.binary ? <span className="badge">binary</span> : null}
      {entry.renamedFrom !== undefined ? (
        <span className="badge" title={`renamed from ${entry.renamedFrom}`}>
          renamed
        </span>
      ) : null}
    </span>
  );
}

/** Every file that differs between base, ours and theirs; conflicts first, each with its state. */
export function MergeFileList({ session, preview }: { session: MergeSession; preview: MergePreview }) {
  const files = useStore(session.store, (s) => s.files);
  const openPath = useStore(session.store, (s) => s.openPath);
  const ordered = orderFiles(preview.files);
  return (
    <nav className="merge-files" aria-label="Files">
      <h2 className="merge-column-title">
        Files <span className="muted">{preview.files.length}</span>
      </h2>
      {preview.files.length === 0 ? <div className="merge-files__empty muted">The two sides have the same files: nothing to merge.</div> : null}
      <ul className="merge-files__list" aria-label="Files to merge">
        {ordered.map((entry) => {
          const progress = files[entry.path];
          const settled = fileSettled(entry, progress);
          const left = fileConflictsLeft(entry, progress);
          const changed = progress?.changed === true;
          return (
            <li key={entry.path}>
              <button
                type="button"
                aria-current={entry.path === openPath ? 'true' : undefined}
                className={`merge-files__row ${entry.path === openPath ? 'is-open' : ''}`}
                data-testid="merge-file-row"
                data-path={entry.path}
                data-status={entry.status}
                data-settled={settled ? 'true' : 'false'}
                onClick={() => void session.store.getState().openFile(entry.path)}
              >
              <span className={`merge-files__mark merge-files__mark--${settled ? 'settled' : entry.status}`} aria-hidden="true">
                {settled ? '✓' : entry.status === 'conflicted' ? '!' : entry.status === 'added' ? '+' : entry.status === 'deleted' ? '−' : '•'}
              </span>
              <span className="merge-files__name" title={entry.renamedFrom ? `${entry.path} (renamed from ${entry.renamedFrom})` : entry.path}>
                <span className="merge-files__base">{entry.path.split('/').pop()}</span>
                <span className="merge-files__dir">{entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/')) : ''}</span>
              </span>
              <span className="merge-files__state">
                {settled ? (
                  <span className="badge badge--ok">resolved</span>
                ) : entry.status === 'conflicted' ? (
                  <span className="badge badge--error">
                    {entry.conflict === 'content' || entry.conflict === undefined ? `${left} conflict${left === 1 ? '' : 's'}` : entry.conflict}
                  </span>
                ) : (
                  <span className="badge" title={`changed by ${CHANGED_BY[entry.changedBy]}`}>
                    {FILE_STATUS_LABELS[entry.status]} · {CHANGED_BY[entry.changedBy]}
                  </span>
                )}
                {changed && !settled ? <span className="merge-files__edited" title="You changed this file's result">edited</span> : null}
              </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
