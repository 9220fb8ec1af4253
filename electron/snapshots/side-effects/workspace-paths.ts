/** Which paths a shell command names are inside the workspace (or harmless scratch space), for classification. */
import { SUBSTITUTION } from './shell-parse';

export interface CommandContext {
  /** The folder the command ran in (the session's project); null when unknown. */
  readonly cwd: string | null;
  /** Set once a `cd` left the workspace: relative paths no longer point into it. */
  leftWorkspace: boolean;
}

const SCRATCH = /^\/(dev\/(null|stdout|stderr|tty)|tmp\/)/;

/** Paths a command may write without it being a side effect: the workspace, temp files, the terminal. */
export function isScratchOrWorkspacePath(path: string, context: CommandContext): boolean {
  return SCRATCH.test(path) || path === '/dev/null' || isWorkspacePath(path, context);
}

/**
 * True when the path names something inside the workspace: relative (and the command did not `cd` away)
 * without climbing out, or absolute under the workspace. Variables, `~` and substitutions are not followed.
 */
export function isWorkspacePath(path: string, context: CommandContext): boolean {
  if (path === '' || path.startsWith('~') || path.includes('$') || path.includes(SUBSTITUTION)) return false;
  let relative: string;
  if (path.startsWith('/')) {
    if (context.cwd === null) return false;
    const root = context.cwd.endsWith('/') ? context.cwd : `${context.cwd}/`;
    if (path !== context.cwd && !path.startsWith(root)) return false;
    relative = path.slice(root.length);
  } else {
    if (context.leftWorkspace) return false;
    relative = path;
  }
  let depth = 0;
  for (const part of relative.split('/')) {
    if (part === '..') depth--;
    else if (part !== '' && part !== '.') depth++;
    if (depth < 0) return false;
  }
  return true;
}
