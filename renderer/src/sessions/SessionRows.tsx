import { ProjectLineageButton } from '../lineage/ProjectLineageButton';
import { memo } from 'react';
import type { SessionId, SessionSummary } from '../../../shared/model';
import { absoluteTime, narrowRelativeTime, plural, relativeTime } from '../app/format';
import { BranchIcon } from '../app/icons';
import { formatBytes } from '../files/format-bytes';
import { lineageNote } from '../../../shared/session-links';
import { activityOf, lineageSummary, type SessionGroup } from './session-groups';
import { SOURCE_DELETED_TOOLTIP } from '../session/SourceDeletedNote';

export const ROW_HEIGHT = 54;
export const HEADER_HEIGHT = 30;

export const ORPHAN_TOOLTIP =
  "Orphan subagent: a subagent's transcript whose parent session's transcript was not found (deleted, or not imported). Listed on its own.";

interface GroupHeaderProps {
  readonly group: SessionGroup;
  readonly top: number;
  readonly cursor: boolean;
  readonly onToggle: (key: string) => void;
}

/** A project's header: folder name, session count, folded or not. Clicking folds it; ←/→ do from the keyboard. */
export const GroupHeader = memo(function GroupHeader({ group, top, cursor, onToggle }: GroupHeaderProps) {
  const count = group.sessions.length;
  const classes = ['session-group__header', cursor ? 'is-cursor' : '', group.collapsed ? 'is-collapsed' : ''].filter(Boolean).join(' ');
  return (
    <div
      className={classes}
      data-testid="session-group-header"
      data-project={group.key}
      data-collapsed={group.collapsed}
      role="presentation"
      title={`${group.key}\n${plural(count, 'session')} · click to ${group.collapsed ? 'expand' : 'collapse'}`}
      style={{ transform: `translateY(${top}px)`, height: HEADER_HEIGHT }}
      onClick={() => onToggle(group.key)}
    >
      <span className="session-group__chevron" aria-hidden>
        {group.collapsed ? '▸' : '▾'}
      </span>
      <span className="session-group__name">{group.name}</span>
      <span className="session-group__count">{count}</span>
      <ProjectLineageButton project={group.key} name={group.name} />
    </div>
  );
});

/** Node counts from 10,000 on in thousands ("20.0k nodes"): the row's second line has room for a date, this and a badge. */
function nodesText(count: number): string {
  return count >= 10_000 ? `${(count / 1000).toFixed(count >= 100_000 ? 0 : 1)}k nodes` : plural(count, 'node');
}

/** The row's size: its nodes and its transcripts' bytes (the row draws the two parts, so a narrow list can drop the bytes). */
export function sizeText(session: SessionSummary): string {
  return nodesText(session.nodeCount) + (session.bytes !== undefined ? ` · ${formatBytes(session.bytes)}` : '');
}

/** The whole size, exact, for when a narrow list ellipsizes it. */
export function sizeTooltip(session: SessionSummary): string {
  return plural(session.nodeCount, 'node') + (session.bytes !== undefined ? ` · ${formatBytes(session.bytes)} (${plural(session.bytes, 'byte')} of transcripts)` : '');
}

interface SessionRowProps {
  readonly id: string;
  readonly session: SessionSummary;
  readonly top: number;
  readonly selected: boolean;
  readonly cursor: boolean;
  readonly onOpen: (id: SessionId) => void;
  /** Listed under its origin (a fork, a continuation, a follower): how deep. */
  readonly depth?: number;
  /** An origin whose line is folded: how many sessions it hides; null when unfolded. */
  readonly hidden?: number | null;
  readonly onFoldLine?: (id: SessionId) => void;
  /** The row's Delete… action (the Delete key does the same on the cursor's row). */
  readonly onDelete?: (id: SessionId) => void;
}

/** Each level under an origin indents a row by this much. */
const DEPTH_INDENT = 14;

export const SessionRow = memo(function SessionRow({ id, session, top, selected, cursor, onOpen, depth = 0, hidden = null, onFoldLine, onDelete }: SessionRowProps) {
  const when = activityOf(session) || null;
  // One line of work across session ids: the session it goes on from, unless it is listed under it already
  // (the title needs the room); what goes on from it is summed up on the second line.
  const lineage = depth > 0 ? undefined : session.links?.find((link) => link.direction === 'earlier');
  const summary = lineageSummary(session);
  const classes = ['session-row', selected ? 'is-selected' : '', cursor ? 'is-cursor' : '', session.orphanSubagent ? 'is-orphan' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      id={id}
      className={classes}
      data-testid="session-row"
      data-session-id={session.id}
      data-orphan={session.orphanSubagent === true ? 'true' : undefined}
      data-source-deleted={session.sourceDeleted === true ? 'true' : undefined}
      role="option"
      aria-selected={selected}
      data-depth={depth > 0 ? depth : undefined}
      title={depth > 0 && session.links !== undefined ? session.links.map(lineageNote).join('\n') : undefined}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT, ...(depth > 0 ? { paddingLeft: 22 + depth * DEPTH_INDENT } : {}) }}
      onClick={() => onOpen(session.id)}
    >
      <div className="session-row__head">
        <span className="session-row__title" title={session.title}>
          {session.title}
        </span>
        {session.branchCount > 0 ? (
          <span className="badge badge--branch" data-testid="session-branches" title={`${session.branchCount} branch points (rewinds, edited prompts, forks, merges)`}>
            <BranchIcon /> {session.branchCount}
          </span>
        ) : null}
        {lineage !== undefined ? (
          <span className="badge badge--lineage" data-testid="lineage-mark" title={session.links!.map(lineageNote).join('\n')}>
            {lineageNote(lineage)}
          </span>
        ) : null}
        {session.source === 'codex' ? (
          <span className="badge badge--agent" data-testid="agent-mark" title="A Codex CLI session">
            Codex
          </span>
        ) : null}
        {session.sourceDeleted === true ? (
          <span className="badge badge--source-deleted" data-testid="source-deleted-mark" title={SOURCE_DELETED_TOOLTIP}>
            source deleted
          </span>
        ) : null}
        {session.orphanSubagent ? (
          <span className="badge badge--orphan" data-testid="orphan-mark" title={ORPHAN_TOOLTIP}>
            orphan subagent
          </span>
        ) : null}
        {onDelete !== undefined ? (
          // On the title's line, which ellipsizes (with its tooltip) to make room for it: over the second line it
          // covered the end of the size ("675.2 K…"). A mark for the mouse, not a control: an option may hold no
          // control of its own (axe's nested-interactive flags a button there even with tabindex -1 and
          // aria-hidden), and the Delete key does the same from the list.
          <span
            className="session-row__delete"
            data-testid="session-delete"
            aria-hidden="true"
            title="Delete this session… (Delete key)"
            onClick={(event) => {
              event.stopPropagation();
              onDelete(session.id);
            }}
          >
            Delete…
          </span>
        ) : null}
      </div>
      <div className="session-row__meta">
        {/* Both forms; the line's width picks one (session-list.css): at 190 px "11 months ago" took the size's room. */}
        <span className="session-row__date" title={absoluteTime(when)}>
          <span className="session-row__date-long">{relativeTime(when)}</span>
          <span className="session-row__date-narrow">{narrowRelativeTime(when)}</span>
        </span>
        <span className="session-row__size" data-testid="session-size" title={sizeTooltip(session)}>
          {nodesText(session.nodeCount)}
          {session.bytes !== undefined ? <span className="session-row__bytes"> · {formatBytes(session.bytes)}</span> : null}
        </span>
        {summary !== null ? (
          <button
            type="button"
            className="badge badge--lineage session-row__line"
            data-testid="lineage-summary"
            aria-expanded={hidden === null}
            title={`${session.links!.filter((link) => link.direction === 'later').map(lineageNote).join('\n')}\n(click to ${hidden === null ? 'fold' : 'unfold'} them)`}
            onClick={(event) => {
              event.stopPropagation();
              onFoldLine?.(session.id);
            }}
          >
            {hidden === null ? '▾' : '▸'} {summary}
          </button>
        ) : null}
      </div>
    </div>
  );
});
