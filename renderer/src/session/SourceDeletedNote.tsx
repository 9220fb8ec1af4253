import { memo } from 'react';
import { useAppState } from '../app/app-context';
import './source-deleted.css';

/** The archive (issue 15): what "source deleted" means, on the list's mark and the session header's note. */
export const SOURCE_DELETED_TOOLTIP =
  "Source deleted: this session's transcript file is no longer on disk (Claude Code removes old transcripts after cleanupPeriodDays). Arbor's store keeps everything it imported: browse, search, export, fork and rewind work as before.";

/** The session header's note, from the sessions list's summary (the list stats the transcripts; the graph does not). */
export const SourceDeletedNote = memo(function SourceDeletedNote({ sessionId }: { readonly sessionId: string }) {
  const deleted = useAppState((s) => s.sessions.some((session) => session.id === sessionId && session.sourceDeleted === true));
  if (!deleted) return null;
  return (
    <span className="source-deleted-note" data-testid="source-deleted-note" title={SOURCE_DELETED_TOOLTIP}>
      source deleted · Arbor keeps every line
    </span>
  );
});
