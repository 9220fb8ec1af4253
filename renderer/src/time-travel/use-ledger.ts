import { useEffect, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import type { SideEffectLedger } from '../../../shared/side-effect-ledger';
import { useArborClient } from '../app/app-context';

export type LedgerState = { readonly status: 'loading' } | { readonly status: 'ready'; readonly ledger: SideEffectLedger } | { readonly status: 'failed' };

/** The side-effect ledger of a session or of the branch through a node (`since`: only the steps after that node). */
export function useLedger(target: string | null, since: NodeId | null = null): LedgerState {
  const client = useArborClient();
  const [state, setState] = useState<LedgerState>({ status: 'loading' });
  useEffect(() => {
    if (target === null) return;
    let live = true;
    const controller = new AbortController();
    setState({ status: 'loading' });
    client.call('effects.ledger', since === null ? { target } : { target, since }, { signal: controller.signal }).then(
      (ledger) => live && setState({ status: 'ready', ledger }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
      controller.abort();
    };
  }, [client, target, since]);
  return state;
}
