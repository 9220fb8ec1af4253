import { useEffect, useState } from 'react';
import { describeFormatReport, type FormatReport } from '../../../shared/format-report';
import { useAppState, useArborClient } from '../app/app-context';
import { Modal } from '../time-travel/Modal';
import './format-report.css';

/**
 * "3 record types not understood" in the session header when Arbor's importer met shapes it does not model
 * (`sessions.formatReport`, the same report as `arbor doctor`); it opens the details. Nothing when all is.
 * `revision` (the node count) asks again when the session grew.
 * The report reads every stored line of the session on the thread that answers requests (72 s at 1M nodes), so it
 * is asked only once the whole graph is in and no import is running: asked beside a huge session's first view, it
 * held the graph's other pages back for a minute, and asked on every growth during an import it read the growing
 * session again and again.
 */
export function FormatReportNote({ sessionId, revision }: { readonly sessionId: string; readonly revision: number }) {
  const client = useArborClient();
  const [report, setReport] = useState<FormatReport | null>(null);
  const [open, setOpen] = useState(false);
  const waiting = useAppState((s) => s.graphPartial || s.importPhase === 'running');
  useEffect(() => {
    if (waiting) return;
    const controller = new AbortController();
    setReport(null);
    // A report that cannot be made leaves the header as it is: it is advice, never in the way.
    client.call('sessions.formatReport', { sessionId }, { signal: controller.signal }).then(setReport, () => undefined);
    return () => controller.abort();
  }, [client, sessionId, revision, waiting]);
  const summary = report === null ? null : describeFormatReport(report);
  if (report === null || summary === null) return null;
  return (
    <>
      <button type="button" className="format-note" data-testid="format-report-note" onClick={() => setOpen(true)} title="What Arbor does not understand in this session’s transcript">
        {summary}
      </button>
      {open ? (
        <Modal title="Not understood in this session" size="wide" testId="format-report" onClose={() => setOpen(false)}>
          <FormatReportDetails report={report} />
        </Modal>
      ) : null}
    </>
  );
}

function FormatReportDetails({ report }: { readonly report: FormatReport }) {
  return (
    <div className="format-report">
      <p className="format-report__lead">
        Arbor keeps these lines and shows them as they are, but does not model them yet. <code>arbor doctor</code> gives the
        same report for whole folders; it tells us exactly what a new Claude Code changed.
      </p>
      {report.unmodelled.length > 0 ? (
        <table className="format-report__table">
          <thead>
            <tr>
              <th>What</th>
              <th>Name</th>
              <th className="is-number">Lines</th>
              <th>Versions</th>
              <th>First seen</th>
            </tr>
          </thead>
          <tbody>
            {report.unmodelled.map((finding) => (
              <tr key={`${finding.category}:${finding.name}`}>
                <td>{finding.category}</td>
                <td>
                  <code>{finding.name}</code>
                </td>
                <td className="is-number">{finding.lines}</td>
                <td>{finding.versions.length === 0 ? '–' : finding.versions.join(', ')}</td>
                <td className="format-report__place" title={`${finding.first.file}:${finding.first.line}`}>
                  {baseName(finding.first.file)}:{finding.first.line}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {report.unreadable.count > 0 ? (
        <>
          <h3 className="format-report__heading">Lines that could not be read ({report.unreadable.count})</h3>
          <ul className="format-report__lines">
            {report.unreadable.examples.map((line) => (
              <li key={`${line.file}:${line.line}`}>
                <span title={line.file}>
                  {baseName(line.file)}:{line.line}
                </span>{' '}
                {line.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
