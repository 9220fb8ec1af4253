import { useStore } from 'zustand';
import { archiveDialogStore } from './archive-dialog-store';
import { ArchiveExportDialog } from './ArchiveExportDialog';

/** Shows the Export archive dialog while it is open (mounted once, in App.tsx). */
export function ArchiveLayer() {
  const open = useStore(archiveDialogStore, (s) => s.open);
  const close = useStore(archiveDialogStore, (s) => s.close);
  return open ? <ArchiveExportDialog onClose={close} /> : null;
}
