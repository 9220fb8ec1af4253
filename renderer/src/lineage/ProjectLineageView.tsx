/**
 * The project view (issue 14): every session of one folder as one graph of lineage — a card per session
 * (title, agent, size, last activity), each under the session it was forked from, continues or follows, Claude
 * Code and Codex alike. A card opens its session at the linked step (a fork at its fork point). ↑/↓ move
 * between cards.
 */
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { agentName, lineageRows, type LineageRow, type ProjectLineage } from '../../../shared/project-lineage';
import { useAppState, useArborClient } from '../app/app-context';
import { absoluteTime, relativeTime } from '../app/format';
import { sizeText } from '../sessions/SessionRows';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import { projectLineageStore, useOpenProject } from './project-lineage-store';
import './project-lineage.css';

export function ProjectLineageLayer() {
  const project = useOpenProject();
  if (project === null) return null;
  return <ProjectLineageView key={project} project={project} onClose={() => projectLineageStore.getState().close()} />;
}

const EDGE_WORDS = { fork: 'forked from', continues: 'continues', follows: 'follows' } as const;

function ProjectLineageView({ project, onClose }: { readonly project: string; readonly onClose: () => void }) {
  const client = useArborClient();
  const openSession = useAppState((s) => s.openSession);
  const [lineage, setLineage] = useState<ProjectLineage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const tree = useRef<HTMLOListElement>(null);
  // The cards arrive after the dialog opened (and focused itself): the first one takes the focus then.
  useEffect(() => {
    if (lineage !== null) tree.current?.querySelector<HTMLButtonElement>('.lineage-card')?.focus();
  }, [lineage]);
  useEffect(() => {
    let live = true;
    client.call('sessions.projectLineage', { project }).then(
      (result) => live && setLineage(result),
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [client, project]);

  const open = useCallback(
    (row: LineageRow) => {
      onClose();
      void openSession(row.session.id, row.via?.nodeId ?? null);
    },
    [onClose, openSession],
  );

  const rows = lineage === null ? [] : lineageRows(lineage);
  const titles = new Map(lineage?.sessions.map((session) => [session.id, session.title]) ?? []);
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const cards = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.lineage-card')];
    const at = cards.indexOf(document.activeElement as HTMLButtonElement);
    const next = cards[Math.max(0, Math.min(cards.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))];
    next?.focus();
    event.preventDefault();
  };

  let body: React.ReactNode;
  if (error !== null) body = <ErrorBox error={error} what="The project's sessions could not be read." />;
  else if (lineage === null) body = <div className="tt-loading">Reading the project's sessions…</div>;
  else if (rows.length === 0) body = <div className="tt-empty">No sessions in this project.</div>;
  else
    body = (
      <>
        <p className="lineage-summary">
          <code title={project}>{project}</code> · {rows.length} {rows.length === 1 ? 'session' : 'sessions'} · {lineage.edges.length}{' '}
          {lineage.edges.length === 1 ? 'link' : 'links'}
        </p>
        <ol className="lineage-tree" data-testid="project-lineage-tree" onKeyDown={onKeyDown} ref={tree}>
          {rows.map((row) => (
            <LineageCard key={row.session.id} row={row} earlierTitle={row.via === null ? null : (titles.get(row.via.earlierId) ?? null)} onOpen={open} />
          ))}
        </ol>
      </>
    );
  return (
    <Modal title="Project lineage" onClose={onClose} size="list" testId="project-lineage">
      {body}
    </Modal>
  );
}

const LineageCard = memo(function LineageCard({ row, earlierTitle, onOpen }: { readonly row: LineageRow; readonly earlierTitle: string | null; readonly onOpen: (row: LineageRow) => void }) {
  const session = row.session;
  const activity = session.lastActivityAt ?? session.updatedAt;
  const kind = row.via?.kind ?? 'root';
  return (
    <li className="lineage-row" data-depth={row.depth} data-kind={kind} style={{ paddingLeft: `${row.depth * 28}px` }}>
      {row.via !== null && (
        <span className="lineage-edge" data-kind={kind} title={earlierTitle === null ? undefined : `${EDGE_WORDS[row.via.kind]} “${earlierTitle}”`}>
          {row.via.kind === 'fork' ? 'fork' : row.via.kind}
        </span>
      )}
      <button
        type="button"
        className="lineage-card"
        data-testid="lineage-card"
        data-session-id={session.id}
        data-agent={session.source}
        title={`Open “${session.title}”${row.via?.nodeId ? ' at the fork point' : ''}`}
        onClick={() => onOpen(row)}
      >
        <span className="lineage-card__title">{session.title}</span>
        <span className="lineage-card__facts">
          <span className="lineage-card__agent" data-agent={session.source}>
            {agentName(session.source)}
          </span>
          <span>{sizeText(session)}</span>
          <span title={absoluteTime(activity)}>{relativeTime(activity)}</span>
        </span>
      </button>
    </li>
  );
});
