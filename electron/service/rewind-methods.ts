/** PLACEHOLDER being built this session: replaced by the real implementation before it lands. */
import { ArborError } from '../../shared/errors';
import type { ArborApi } from '../../shared/contract';
import type { WorkspaceContext } from './workspace-context';

export type RewindMethodName = 'rewind.preview' | 'rewind.apply' | 'operations.undo' | 'operations.list';

export function createRewindMethods(_workspace: WorkspaceContext): Pick<ArborApi, RewindMethodName> {
  const notYet = async (): Promise<never> => {
    throw new ArborError('UNSUPPORTED', 'Not built yet');
  };
  return {
    'rewind.preview': notYet,
    'rewind.apply': notYet,
    'operations.undo': notYet,
    'operations.list': notYet,
  };
}
