/**
 * The operation engine with the user's global excludes file honoured (core.excludesFile, git-config.ts): an
 * apply or undo that would write or delete a file git ignores through it is refused before the engine runs,
 * with `BAD_REQUEST` and `data.path`, as the engine refuses what `.gitignore` and `info/exclude` ignore. The
 * service wraps its runner once (workspace-context.ts), where the home and environment are known.
 */
import { ArborError } from '../../shared/errors';
import { createOperationJournal } from '../db/operation-journal';
import type { SessionStore } from '../db/session-store';
import type { GitEnvironment } from '../git/ignore-files';
import type { OperationRunner } from './operation-types';
import { createIgnoreCheck } from './path-checks';

function refuseIgnored(workspace: string, paths: readonly string[], git: GitEnvironment): void {
  const ignored = createIgnoreCheck(workspace, git);
  for (const path of paths) {
    if (ignored(path)) throw new ArborError('BAD_REQUEST', `${path} is ignored (the global excludes file): operations never write ignored files`, { path });
  }
}

export function withGlobalIgnores(runner: OperationRunner, store: SessionStore, git: GitEnvironment): OperationRunner {
  const journal = createOperationJournal(store.handles);
  return {
    async apply(plan, options) {
      refuseIgnored(plan.workspace, plan.changes.map((change) => change.path), git);
      return runner.apply(plan, options);
    },
    async undo(operationId, options) {
      // An unknown operation is the engine's to report.
      const operation = journal.get(operationId);
      if (operation !== null) refuseIgnored(operation.workspace, journal.files(operationId).map((file) => file.path), git);
      return runner.undo(operationId, options);
    },
    list: (filter) => runner.list(filter),
    recover: () => runner.recover(),
  };
}
