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
  // The header is narrow: the folder (already named above) gives way first, the command with its id never does.
  // The copy and the tooltip are whole.
  return (
    <span className="session-resume" data-testid="session-resume" title={line}>
      <span className="session-resume__label">Continue:</span>
      <code ref={commandRef} className="session-resume__command" data-command={line}>
        {session.project ? <span className="session-resume__cd">cd {shortenPath(session.project)} &amp;&amp;</span> : null}
        <span className="session-resume__resume">{command}</span>
      </code>
      <CopyButton text={line} fallbackTarget={() => commandRef.current} />
    </span>
  );
});
