import { useEffect, useState } from 'react';
import { useAppState } from '../app/app-context';
import { describeImportLines } from '../../../shared/import-lines';
import { formatCount, plural } from '../app/format';

/** Header status of the background import: a progress bar while running, then a short summary. */
export function ImportStatus() {
  const phase = useAppState((s) => s.importPhase);
  const progress = useAppState((s) => s.importProgress);
  const report = useAppState((s) => s.importReport);
  const cancelImport = useAppState((s) => s.cancelImport);
  const [summaryVisible, setSummaryVisible] = useState(true);

  useEffect(() => {
    setSummaryVisible(true);
    if (phase !== 'done' && phase !== 'cancelled') return;
    const timer = setTimeout(() => setSummaryVisible(false), 8000);
    return () => clearTimeout(timer);
  }, [phase]);

  if (phase === 'running') {
    const byBytes = progress !== null && progress.bytesTotal > 0;
    const done = progress ? (byBytes ? progress.bytesDone : progress.filesDone) : 0;
    const total = progress ? (byBytes ? progress.bytesTotal : progress.filesTotal) : 0;
    const fraction = total > 0 ? Math.min(1, done / total) : null;
    const label =
      progress === null || progress.phase === 'discover'
        ? 'Looking for sessions…'
        : progress.phase === 'index'
          ? 'Indexing for search…'
          : `Importing ${formatCount(progress.filesDone)} / ${formatCount(progress.filesTotal)} files`;
    return (
      <div className="import-status" data-testid="import-progress" data-phase={progress?.phase ?? 'discover'} title={progress?.currentFile ?? undefined}>
        <span className="import-status__label">{label}</span>
        <progress
          className="import-status__bar"
          max={1}
          value={fraction ?? undefined}
          aria-label="Import progress"
        />
        <button type="button" className="link-button" onClick={cancelImport}>
          Cancel
        </button>
      </div>
    );
  }
  if (!summaryVisible) return null;
  if (phase === 'done' && report) {
    const problems = report.problems.length;
    return (
      <div className="import-status import-status--done" data-testid="import-summary" title={problems ? report.problems.slice(0, 20).map((p) => `${p.file}:${p.line} ${p.reason}`).join('\n') : undefined}>
        {report.sessions.length > 0 ? `Imported ${plural(report.sessions.length, 'session')}` : 'Sessions up to date'}
        {/* The same account of the lines `arbor import` prints: kept lines are never "skipped". */}
        {report.lines
          ? describeImportLines(report.lines).map((line) => (
              <span key={line} className="muted">
                {' · '}
                {line}
              </span>
            ))
          : problems > 0
            ? <span className="muted"> · {plural(problems, 'problem')} reported</span>
            : null}
      </div>
    );
  }
  if (phase === 'cancelled') return <div className="import-status muted" data-testid="import-summary">Import cancelled</div>;
  return null;
}
