import { useMemo, useState } from 'react';
import { useAppState } from '../app/app-context';
import { usePaletteActions } from '../palette/palette-registry';
import { Modal } from '../time-travel/Modal';

/**
 * "Import folder…": a folder (or .jsonl file) path typed or pasted, imported like the default locations,
 * with the header's progress and summary. Path-based on purpose: the browser build has no native picker;
 * the desktop shell may add one that fills the same field.
 */
export function ImportFolderButton() {
  const [open, setOpen] = useState(false);
  const running = useAppState((s) => s.importPhase === 'running');
  const actions = useMemo(
    () => [{ id: 'import.folder', title: 'Import folder…', group: 'Sessions', keywords: 'add transcripts jsonl', run: () => setOpen(true) }],
    [],
  );
  usePaletteActions(actions);
  return (
    <>
      <button
        type="button"
        className="secondary-button session-pane__import"
        data-testid="import-folder"
        disabled={running}
        title={running ? 'An import is running' : 'Import the transcripts in a folder'}
        onClick={() => setOpen(true)}
      >
        Import folder…
      </button>
      {open ? <ImportFolderDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ImportFolderDialog({ onClose }: { readonly onClose: () => void }) {
  const runImport = useAppState((s) => s.runImport);
  const running = useAppState((s) => s.importPhase === 'running');
  const [path, setPath] = useState('');
  const ready = path.trim() !== '' && !running;
  const start = () => {
    if (!ready) return;
    void runImport([path.trim()]);
    onClose();
  };
  return (
    <Modal
      title="Import folder"
      onClose={onClose}
      testId="import-folder-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="import-folder-form" className="primary-button" data-testid="import-folder-start" disabled={!ready}>
            Import
          </button>
        </>
      }
    >
      <form
        id="import-folder-form"
        className="tt-form"
        onSubmit={(event) => {
          event.preventDefault();
          start();
        }}
      >
        <p className="tt-lead">Arbor reads every Claude Code transcript (.jsonl) in the folder and below it. Nothing in the folder is changed.</p>
        <label className="tt-field">
          <span className="tt-field__label">Folder or file</span>
          <input
            className="text-input tt-field__input"
            data-testid="import-folder-path"
            data-autofocus
            value={path}
            onChange={(event) => setPath(event.target.value)}
            placeholder="/home/you/.claude/projects/my-project"
            spellCheck={false}
          />
        </label>
      </form>
    </Modal>
  );
}
