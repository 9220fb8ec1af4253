/** PLACEHOLDER being built this session: replaced by the real implementation before it lands. */
import { ArborError } from '../../shared/errors';
import type { ArborApi } from '../../shared/contract';
import type { WorkspaceContext } from './workspace-context';

export type MergeMethodName = 'merge.preview' | 'merge.file' | 'merge.apply';

export function createMergeMethods(_workspace: WorkspaceContext): Pick<ArborApi, MergeMethodName> {
  const notYet = async (): Promise<never> => {
    throw new ArborError('UNSUPPORTED', 'Not built yet');
  };
  return {
    'merge.preview': notYet,
    'merge.file': notYet,
    'merge.apply': notYet,
  };
}
