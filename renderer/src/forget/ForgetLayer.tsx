import { useStore } from 'zustand';
import { assertNever } from '../../../shared/errors';
import { CleanUpDialog } from './CleanUpDialog';
import { DeleteSessionDialog } from './DeleteSessionDialog';
import { forgetStore } from './forget-store';

/** Shows the open Delete or Clean up dialog (mounted once, in App.tsx). */
export function ForgetLayer() {
  const dialog = useStore(forgetStore, (s) => s.dialog);
  const close = useStore(forgetStore, (s) => s.close);
  if (dialog === null) return null;
  switch (dialog.kind) {
    case 'delete':
      return <DeleteSessionDialog key={dialog.sessionId} sessionId={dialog.sessionId} onClose={close} />;
    case 'clean-up':
      return <CleanUpDialog onClose={close} />;
    default:
      return assertNever(dialog);
  }
}
