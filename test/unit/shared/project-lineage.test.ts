/** lineageRows: a project's sessions depth first under the sessions they go on from. */
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../shared/model';
import { lineageRows, type ProjectLineageEdge } from '../../../shared/project-lineage';

const session = (id: string): SessionSummary => ({ id, source: 'codex', title: id, project: '/p', startedAt: null, updatedAt: null, nodeCount: 1, fileCount: 1, branchCount: 0 });
const edge = (earlierId: string, laterId: string, kind: ProjectLineageEdge['kind'] = 'fork'): ProjectLineageEdge => ({ kind, earlierId, laterId, nodeId: null });

describe('lineageRows', () => {
  it('puts each session under the one it goes on from, earliest first, and roots in list order', () => {
    const rows = lineageRows({ project: '/p', sessions: ['a', 'b', 'c', 'd', 'e'].map(session), edges: [edge('a', 'c'), edge('a', 'b', 'continues'), edge('c', 'd', 'follows')] });
    expect(rows.map((row) => [row.session.id, row.depth, row.via?.kind ?? null])).toEqual([
      ['a', 0, null],
      ['b', 1, 'continues'],
      ['c', 1, 'fork'],
      ['d', 2, 'follows'],
      ['e', 0, null],
    ]);
  });

  it('draws every session once, even in a cycle of links or with a link to a session outside the project', () => {
    const rows = lineageRows({ project: '/p', sessions: ['x', 'y'].map(session), edges: [edge('x', 'y'), edge('y', 'x'), edge('gone', 'x')] });
    expect(rows.map((row) => row.session.id).sort()).toEqual(['x', 'y']);
    expect(rows.map((row) => row.depth)).toEqual([0, 1]);
  });
});
