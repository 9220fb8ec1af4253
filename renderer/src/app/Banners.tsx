import { useEffect, useState, type ReactNode } from 'react';
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

function useConnection(): ConnectionState {
  const client = useArborClient();
  const [state, setState] = useState<ConnectionState>(() => client.connection());
  useEffect(() => {
    setState(client.connection());
    return client.onConnection(setState);
  }, [client]);
  return state;
}

/** The header's status line: what `connected` says, unless the app has lost its connection. */
export function ConnectionStatus({ connected }: { readonly connected: ReactNode }) {
  if (useConnection() !== 'disconnected') return <>{connected}</>;
  return (
    <span className="connection-status" data-testid="connection-status" role="status">
      Disconnected
    </span>
  );
}

/** The web host can drop; say so while the client reconnects. */
export function ConnectionBanner() {
  const state = useConnection();
  if (state !== 'disconnected') return null;
  return (
    <div className="banner banner--warning" data-testid="connection-lost" role="status">
      Disconnected from Arbor — reconnecting…
    </div>
  );
}
