/** The session header's tokens and cost, with how the cost is known (issue 15). */
import { useEffect, useState } from 'react';
import type { SessionUsage } from '../../../shared/usage';
import { useArborClient } from '../app/app-context';
import { longCost, shortCost } from './cost-words';

/** How often a partial figure (a store from before tokens were counted, still being read) is asked again. */
const COUNTING_POLL_MS = 2000;

/** `revision` changes when the session grows (its node count), so an append is counted. */
export function SessionCost({ sessionId, revision }: { readonly sessionId: string; readonly revision: number }) {
  const client = useArborClient();
  const [usage, setUsage] = useState<SessionUsage | null>(null);
  const [poll, setPoll] = useState(0);
  useEffect(() => {
    let live = true;
    client.call('stats.session', { sessionId }).then(
      (answer) => live && setUsage(answer),
      () => live && setUsage(null),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, revision, poll]);
  const counting = usage?.counting === true;
  useEffect(() => {
    if (!counting) return;
    const timer = setTimeout(() => setPoll((n) => n + 1), COUNTING_POLL_MS);
    return () => clearTimeout(timer);
  }, [counting, usage]);
  if (usage === null) return null;
  const figure = usage.total;
  if (figure.replies === 0 && !counting) return null;
  const partial = counting ? 'Tokens are still being counted; this figure is partial. ' : '';
  return (
    <span className="session-cost" data-testid="session-cost" data-bases={figure.bases.join(' ')} title={`${partial}${figure.replies === 0 ? '' : longCost(figure)}`}>
      {figure.replies === 0 ? 'counting…' : counting ? `${shortCost(figure)} · counting…` : shortCost(figure)}
    </span>
  );
}
