/**
 * Makes the demo workspace a real git repository (init + one commit) without the `git` binary,
 * so the demo behaves like a user's project: tracked files, a .gitignore, an ignored file.
 */
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { throwIfAborted } from '../../shared/errors';

export interface DemoCommitOptions {
  readonly message: string;
  readonly when: Date;
  readonly signal?: AbortSignal;
}

/** `git init -b main`, `git add` of the given (already written) files, one commit; returns its oid. */
export async function commitDemoWorkspace(dir: string, paths: readonly string[], options: DemoCommitOptions): Promise<string> {
  const check = () => throwIfAborted(options.signal);
  check();
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const filepath of paths) {
    check();
    await git.add({ fs, dir, filepath });
  }
  check();
  const author = { name: 'Arbor Demo', email: 'demo@arbor.invalid', timestamp: Math.floor(options.when.getTime() / 1000), timezoneOffset: 0 };
  return git.commit({ fs, dir, message: options.message, author, committer: author });
}
