import { useAppState } from '../app/app-context';
import { ExportIcon } from '../app/icons';
import { openExportDialog } from './export-dialog-store';

/** "Export…" in the session header: the open session, or the branch through the selected node. */
export function ExportButton({ sessionId }: { readonly sessionId: string }) {
  const nodeId = useAppState((s) => s.selectedNodeId);
  return (
    <button type="button" className="secondary-button export-button" data-testid="open-export" aria-label="Export…" title="Export the session, or the branch through the selected node" onClick={() => openExportDialog({ sessionId, nodeId })}>
      <ExportIcon />
      <span className="head-label">Export…</span>
    </button>
  );
}
