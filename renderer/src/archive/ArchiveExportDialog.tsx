/**
 * "Export archive…" (issue 15): the whole store written to a folder to install on another machine, by the
 * same service method as `arbor export-archive` (archive.export). The folder is typed or pasted: the browser
 * build has no native picker. Progress comes as `operation.progress` events of `archive-export`.
 */
import { useEffect, useRef, useState } from 'react';
import type { ArchiveExported } from '../../../shared/archive';
import type { ArborEvents } from '../../../shared/contract';
import { useArborClient } from '../app/app-context';
import { plural } from '../app/format';
import { useMounted } from '../app/use-mounted';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import './archive.css';

const PHASES: Readonly<Record<string, string>> = {
  database: 'Copying the store',
  snapshots: 'Copying the snapshot repository',
  verify: 'Checking the copy',
  install: 'Installing',
};

export function ArchiveExportDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useArborClient();
  const alive = useMounted();
  const [dir, setDir] = useState('');
  const [force, setForce] = useState(false);
  const [writing, setWriting] = useState(false);
  const [progress, setProgress] = useState<ArborEvents['operation.progress'] | null>(null);
  const [exported, setExported] = useState<ArchiveExported | null>(null);
  const [error, setError] = useState<unknown>(null);
  const stop = useRef<AbortController | null>(null);

  useEffect(() => client.on('operation.progress', (event) => event.operation === 'archive-export' && setProgress(event)), [client]);
  // Closing the dialog while it writes stops the export (the partial folder is removed).
  useEffect(() => () => stop.current?.abort(), []);

  const write = async () => {
    if (dir.trim() === '' || writing) return;
    const controller = new AbortController();
    stop.current = controller;
    setError(null);
    setProgress(null);
    setWriting(true);
    try {
      const result = await client.call('archive.export', { dir: dir.trim(), force }, { signal: controller.signal });
      if (alive.current) setExported(result);
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      stop.current = null;
      if (alive.current) setWriting(false);
    }
  };

  if (exported !== null) {
    const { counts } = exported.manifest;
    return (
      <Modal
        title="Export archive"
        onClose={onClose}
        testId="archive-export-dialog"
        footer={
          <button type="button" className="primary-button" data-autofocus onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="tt-done" role="status" data-testid="archive-exported">
          Wrote the archive <code className="tt-dir">{exported.dir}</code>
          <div className="muted">
            {plural(counts.sessions, 'session')}, {plural(counts.nodes, 'step')}, {plural(counts.snapshots, 'snapshot')} · store schema {exported.manifest.schemaVersion}
          </div>
        </div>
        <p className="tt-lead">
          On the other machine, install it with
          <code className="archive-command" data-testid="archive-import-command">
            arbor import-archive {JSON.stringify(exported.dir)}
          </code>
        </p>
      </Modal>
    );
  }

  const determinate = progress !== null && progress.total > 0;
  return (
    <Modal
      title="Export archive"
      onClose={onClose}
      busy={writing}
      testId="archive-export-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" onClick={() => (writing ? stop.current?.abort() : onClose())} data-testid="archive-cancel">
            {writing ? 'Stop' : 'Cancel'}
          </button>
          <button type="submit" form="archive-export-form" className="primary-button" data-testid="archive-export-write" disabled={writing || dir.trim() === ''}>
            {writing ? 'Exporting…' : 'Export archive'}
          </button>
        </>
      }
    >
      <form
        id="archive-export-form"
        className="tt-form"
        onSubmit={(event) => {
          event.preventDefault();
          void write();
        }}
      >
        <p className="tt-lead">
          Writes Arbor's whole store into a folder, to move it to another machine: the sessions and their search index, every snapshot (a git
          repository any git remote can carry) and a manifest. Arbor keeps running while it is written. Transcripts and fork folders stay where they are.
        </p>
        <label className="tt-field">
          <span className="tt-field__label">Folder</span>
          <input
            className="text-input tt-field__input"
            data-testid="archive-export-dir"
            data-autofocus
            value={dir}
            onChange={(event) => setDir(event.target.value)}
            placeholder="/media/usb/arbor-archive"
            spellCheck={false}
            disabled={writing}
          />
        </label>
        <label className="archive-check">
          <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} disabled={writing} data-testid="archive-export-force" /> Replace the folder if it is
          not empty
        </label>
        {writing ? (
          <div className="tt-progress" role="status" data-testid="archive-export-progress">
            <span>{progress === null ? 'Starting…' : `${PHASES[progress.phase] ?? progress.phase}${determinate ? ` — ${Math.floor((progress.done / progress.total) * 100)}%` : '…'}`}</span>
            {determinate ? <progress className="tt-progress__bar" max={progress.total} value={progress.done} aria-label="Archive progress" /> : <progress className="tt-progress__bar" aria-label="Archive progress" />}
          </div>
        ) : null}
        {error ? <ErrorBox error={error} what="The archive was not written." /> : null}
      </form>
    </Modal>
  );
}
