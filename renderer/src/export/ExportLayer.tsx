import { useStore } from 'zustand';
import { exportDialogStore } from './export-dialog-store';
import { ExportDialog } from './ExportDialog';

/** Shows the Export dialog while one is open (mounted once, in App.tsx). */
export function ExportLayer() {
  const target = useStore(exportDialogStore, (s) => s.target);
  const close = useStore(exportDialogStore, (s) => s.close);
  return target === null ? null : <ExportDialog key={`${target.sessionId}:${target.nodeId ?? ''}`} target={target} onClose={close} />;
}
