/** PLACEHOLDER being built this session: replaced by the real implementation before it lands. */
import { ArborError } from '../../shared/errors';
import type { ArborApi } from '../../shared/contract';
import type { WorkspaceContext } from './workspace-context';

export type ForkMethodName = 'fork.create' | 'forks.list' | 'forks.remove';

export function createForkMethods(_workspace: WorkspaceContext): Pick<ArborApi, ForkMethodName> {
  const notYet = async (): Promise<never> => {
    throw new ArborError('UNSUPPORTED', 'Not built yet');
  };
  return {
    'fork.create': notYet,
    'forks.list': notYet,
    'forks.remove': notYet,
  };
}
