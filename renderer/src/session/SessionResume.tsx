/**
 * The open Codex session's "continue it" line in its header: `cd <folder> && codex resume <thread id>`, with a
 * copy button (issue 14). A Codex thread is its own session in Arbor, so a fork Arbor wrote shows here the
 * command that continues it; a Claude Code fork's copy joins its source session, so its command stays in the
 * fork dialog and the forks list.
 */
import { memo, useRef } from 'react';
import type { SessionSummary } from '../../../shared/model';
import { shortenPath } from '../app/format';
import { CopyButton } from '../time-travel/CopyButton';
import { resumeLine } from '../time-travel/resume-command';
import './session-resume.css';

const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SessionResume = memo(function SessionResume({ session }: { readonly session: Pick<SessionSummary, 'id' | 'source' | 'project'> }) {
  const commandRef = useRef<HTMLElement>(null);
  if (session.source !== 'codex' || !THREAD_ID.test(session.id)) return null;
  const command = `codex resume ${session.id}`;
  const line = session.project ? resumeLine(session.project, command) : command;
  // The folder is shortened on screen (the header already names it); the copy and the tooltip are whole.
  const shown = session.project ? `cd ${shortenPath(session.project)} && ${command}` : command;
  return (
    <span className="session-resume" data-testid="session-resume" title={line}>
      <span className="session-resume__label">Continue:</span>
      <code ref={commandRef} className="session-resume__command" data-command={line}>
        {shown}
      </code>
      <CopyButton text={line} fallbackTarget={() => commandRef.current} />
    </span>
  );
});
