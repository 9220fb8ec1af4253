/**
 * The open session's links in its header (issue 13/14): "forked from <title>", "continued in <title>",
 * "follows <title>", … each a link that opens the other session at the linked step (a fork's fork point;
 * a continuation or a cleared context at its start). A session not imported is named, not linked.
 */
import { memo } from 'react';
import type { SessionLink } from '../../../shared/model';
import { lineageNote } from '../../../shared/session-links';
import { useAppState } from '../app/app-context';
import './session-links.css';

/** The words before the other session's title, by kind and direction (the title is the link). */
function linkVerb(link: SessionLink): string {
  if (link.direction === 'earlier') return link.kind === 'fork' ? 'forked from' : link.kind === 'continues' ? 'continues' : 'follows';
  return link.kind === 'fork' ? 'forked into' : link.kind === 'continues' ? 'continued in' : 'followed by';
}

export const SessionLinks = memo(function SessionLinks({ links }: { links: readonly SessionLink[] | undefined }) {
  const openSession = useAppState((s) => s.openSession);
  if (links === undefined || links.length === 0) return null;
  // What this session goes on from first, then what goes on from it.
  const ordered = [...links.filter((link) => link.direction === 'earlier'), ...links.filter((link) => link.direction === 'later')];
  return (
    <span className="session-links" data-testid="session-links">
      {ordered.map((link) => (
        <span key={`${link.kind}-${link.direction}-${link.sessionId}`} className="session-links__item" data-testid="session-link" data-kind={link.kind}>
          {linkVerb(link)}{' '}
          {link.title === null ? (
            <span className="session-links__missing" title={lineageNote(link)}>
              {link.sessionId.slice(0, 8)} (not imported)
            </span>
          ) : (
            <button
              type="button"
              className="session-links__open"
              title={`Open “${link.title}”${link.nodeId !== null ? ' at the fork point' : ''}`}
              onClick={() => void openSession(link.sessionId, link.nodeId)}
            >
              {link.title}
            </button>
          )}
        </span>
      ))}
    </span>
  );
});
