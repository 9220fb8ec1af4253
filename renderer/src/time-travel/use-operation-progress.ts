import { useEffect, useState } from 'react';
import type { ArborEvents } from '../../../shared/contract';
import type { ArborClient } from '../client/arbor-client';

export type OperationProgress = ArborEvents['operation.progress'];

/**
 * The newest `operation.progress` event while `active`. Only one operation runs from a dialog at a time,
 * and its id is known only when it returns, so any progress seen meanwhile is taken as its own.
 */
export function useOperationProgress(client: ArborClient, active: boolean): OperationProgress | null {
  const [progress, setProgress] = useState<OperationProgress | null>(null);
  useEffect(() => {
    if (!active) {
      setProgress(null);
      return;
    }
    return client.on('operation.progress', setProgress);
  }, [client, active]);
  return progress;
}
