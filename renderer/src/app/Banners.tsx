import { useEffect, useState } from 'react';
import type { ConnectionState } from '../client/arbor-client';
import { useAppState, useArborClient } from './app-context';

/** Errors the user should know about, dismissable. */
export function ErrorBanner() {
  const notices = useAppState((s) => s.notices);
  const dismiss = useAppState((s) => s.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <div className="banner banner--error" data-testid="app-error" role="alert">
      {notices.map((n) => (
        <div key={n.id} className="banner__row" data-code={n.code}>
          <span className="banner__text">{n.message}</span>
          <button type="button" className="banner__close" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** The web host can drop; say so while the client reconnects. */
export function ConnectionBanner() {
  const client = useArborClient();
  const [state, setState] = useState<ConnectionState>(() => client.connection());
  useEffect(() => {
    setState(client.connection());
    return client.onConnection(setState);
  }, [client]);
  if (state !== 'disconnected') return null;
  return (
    <div className="banner banner--warning" data-testid="connection-lost" role="status">
      Disconnected from Arbor — reconnecting…
    </div>
  );
}
