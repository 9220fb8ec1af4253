/**
 * A session's links to the sessions it goes on from or that go on from it (forks, background continuations,
 * a cleared context), said in words for `arbor ls` and `arbor show`: "forked from <title> (<short id>) at
 * <step>". Titles are transcript text: they reach the terminal through inertIO like every other line.
 */
import type { SessionLink } from '../../shared/model';
import { oneLine } from './format';

/** As many characters of an id as `arbor ls` shows at least; any unique prefix opens the session. */
const SHORT_ID = 8;

/** `step`: the fork point's label when the caller has it (show), else its short id is said (ls). */
export function linkPhrase(link: SessionLink, step?: string | null): string {
  const other = `${link.title === null ? 'a session not imported' : oneLine(link.title, 60)} (${link.sessionId.slice(0, SHORT_ID)})`;
  const at = link.nodeId === null ? '' : ` at ${step !== undefined && step !== null ? `“${oneLine(step, 60)}”` : `step ${link.nodeId.slice(0, SHORT_ID)}`}`;
  switch (link.kind) {
    case 'fork':
      return link.direction === 'earlier' ? `forked from ${other}${at}` : `forked into ${other}${at}`;
    case 'continues':
      return link.direction === 'earlier' ? `continues ${other}` : `continued in ${other}`;
    case 'follows':
      return link.direction === 'earlier' ? `follows ${other}` : `followed by ${other}`;
  }
}

/** Each link in words, earlier sessions first (what this one goes on from, then what goes on from it). */
export function linkPhrases(links: readonly SessionLink[] | undefined, stepLabel: (nodeId: string) => string | null = () => null): string[] {
  if (links === undefined) return [];
  const ordered = [...links.filter((link) => link.direction === 'earlier'), ...links.filter((link) => link.direction === 'later')];
  return ordered.map((link) => linkPhrase(link, link.nodeId === null ? null : (stepLabel(link.nodeId) ?? undefined)));
}
