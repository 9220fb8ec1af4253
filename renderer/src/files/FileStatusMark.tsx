import type { FileChangeStatus } from '../../../shared/model';

const MARK: Record<FileChangeStatus, string> = { added: 'A', modified: 'M', deleted: 'D' };
const TITLE: Record<FileChangeStatus, string> = { added: 'added', modified: 'modified', deleted: 'deleted' };

/** A/M/D in the status colours; "?" for a file whose content is not known; a blank square for the rest. */
export function FileStatusMark({ status, unknown }: { readonly status?: FileChangeStatus | undefined; readonly unknown?: boolean | undefined }) {
  if (status)
    return (
      <span className={`file-status file-status--${status}`} title={TITLE[status]} data-status={status}>
        {MARK[status]}
      </span>
    );
  if (unknown)
    return (
      <span className="file-status file-status--unknown" title="content not known">
        ?
      </span>
    );
  return <span className="file-status file-status--none" aria-hidden="true" />;
}
