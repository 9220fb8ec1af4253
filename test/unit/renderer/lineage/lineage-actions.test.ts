/** The palette's "Show project lineage" opens the project of the open session, else of the first listed one. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/model';
import { projectLineageActions } from '../../../../renderer/src/lineage/lineage-actions';
import { projectLineageStore } from '../../../../renderer/src/lineage/project-lineage-store';

const session = (id: string, projectKey: string): SessionSummary => ({ id, source: 'claude-code', title: id, project: projectKey, projectKey, startedAt: null, updatedAt: null, nodeCount: 1, fileCount: 1, branchCount: 0 });

afterEach(() => projectLineageStore.getState().close());

describe('projectLineageActions', () => {
  it('opens the open session’s project', () => {
    const actions = projectLineageActions({ sessions: [session('a', '/one'), session('b', '/two')], selectedSessionId: 'b' });
    expect(actions.map((action) => action.title)).toEqual(['Show project lineage']);
    actions[0]!.run();
    expect(projectLineageStore.getState().project).toBe('/two');
  });

  it('falls back to the first listed session, and offers nothing without sessions', () => {
    projectLineageActions({ sessions: [session('a', '/one')], selectedSessionId: null })[0]!.run();
    expect(projectLineageStore.getState().project).toBe('/one');
    expect(projectLineageActions({ sessions: [], selectedSessionId: null })).toEqual([]);
  });
});
