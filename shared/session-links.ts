/** How a session that goes on from another (or that another goes on from) is named: the list's mark, the CLI. */
import type { SessionLink } from './model';

/** "continues <title>", "forked from <title>", "continued in <title>", …; a session not imported is named by its id. */
export function lineageNote(link: SessionLink): string {
  const other = link.title ?? `${link.sessionId} (not imported)`;
  if (link.direction === 'earlier') {
    return link.kind === 'fork' ? `forked from ${other}` : link.kind === 'continues' ? `continues ${other}` : `follows ${other}`;
  }
  return link.kind === 'fork' ? `forked into ${other}` : link.kind === 'continues' ? `continued in ${other}` : `followed by ${other}`;
}
