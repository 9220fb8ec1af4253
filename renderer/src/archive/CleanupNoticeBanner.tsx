import { useEffect, useState } from 'react';
import type { CleanupNotice } from '../../../shared/archive';
import { useArborClient } from '../app/app-context';
import './archive.css';

/**
 * The archive's one-time notice (issue 15): Claude Code's transcript cleanup is at its default, so say what that
 * means and how to change it, until the user dismisses it (remembered in the store, so it is said once).
 */
export function CleanupNoticeBanner() {
  const client = useArborClient();
  const [notice, setNotice] = useState<CleanupNotice | null>(null);
  useEffect(() => {
    let live = true;
    // A notice that cannot be read is not worth an error banner: the app works the same without it.
    client.call('archive.notice', {}).then(
      (result) => live && setNotice(result.notice),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client]);
  if (notice === null) return null;
  const example = `"${notice.setting}": ${notice.exampleDays}`;
  const dismiss = (): void => {
    setNotice(null);
    void client.call('archive.dismissNotice', {}).catch(() => undefined);
  };
  return (
    <section className="banner banner--info cleanup-notice" data-testid="cleanup-notice" aria-label="Claude Code transcript cleanup">
      <div className="banner__row">
        <p className="banner__text">
          <strong>
            Claude Code deletes transcripts older than {notice.days} days; Arbor keeps what it imported.
          </strong>{' '}
          To keep them in Claude Code too, set <code>{notice.setting}</code> in <code title={notice.settingsFile}>{notice.settingsFile}</code>, for
          example <code>{`{ ${example} }`}</code>.
        </p>
        <button type="button" className="cleanup-notice__dismiss" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
