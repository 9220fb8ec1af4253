/** The palette's "Show project lineage": the project of the open session, else of the newest listed one. */
import type { AppState } from '../state/app-state';
import type { PaletteAction } from '../palette/palette-registry';
import { openProjectLineage } from './project-lineage-store';

export function projectLineageActions(state: Pick<AppState, 'sessions' | 'selectedSessionId'>): PaletteAction[] {
  const session = state.sessions.find((s) => s.id === state.selectedSessionId) ?? state.sessions[0];
  const project = session === undefined ? null : (session.projectKey ?? session.project);
  if (project === null || project === undefined) return [];
  return [{ id: 'project.lineage', title: 'Show project lineage', group: 'View', keywords: 'forks continuations sessions folder graph', run: () => openProjectLineage(project) }];
}
