/** The session header's tokens and cost, with how the cost is known (issue 15). */
import { useEffect, useState } from 'react';
import type { UsageFigure } from '../../../shared/usage';
import { useArborClient } from '../app/app-context';
import { longCost, shortCost } from './cost-words';

/** `revision` changes when the session grows (its node count), so an append is counted. */
export function SessionCost({ sessionId, revision }: { readonly sessionId: string; readonly revision: number }) {
  const client = useArborClient();
  const [figure, setFigure] = useState<UsageFigure | null>(null);
  useEffect(() => {
    let live = true;
    client.call('stats.session', { sessionId }).then(
      (usage) => live && setFigure(usage.total),
      () => live && setFigure(null),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, revision]);
  if (figure === null || figure.replies === 0) return null;
  return (
    <span className="session-cost" data-testid="session-cost" data-bases={figure.bases.join(' ')} title={longCost(figure)}>
      {shortCost(figure)}
    </span>
  );
}
