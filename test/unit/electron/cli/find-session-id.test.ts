/**
 * `arbor effects` and `arbor export` name a session by id or unique prefix: findSessionId resolves it from the
 * sessions list, never through `sessions.graph` (which held a 1 GB session's whole graph in the CLI before the
 * ledger read it again in pages), with loadSessionGraph's errors.
 */
import { describe, expect, it } from 'vitest';
import { findSessionId } from '../../../../electron/cli/sessions';
import type { ArborApi } from '../../../../shared/contract';
import { ArborError } from '../../../../shared/errors';
import type { SessionSummary } from '../../../../shared/model';

const summary = (id: string): SessionSummary => ({ id, source: 'claude-code', title: id, project: null, startedAt: null, updatedAt: null, nodeCount: 1, fileCount: 1, branchCount: 0 });

function apiOf(ids: readonly string[]): { api: ArborApi; graphReads: string[] } {
  const graphReads: string[] = [];
  const api = {
    'sessions.list': async () => ({ sessions: ids.map(summary), total: ids.length }),
    'sessions.graph': async ({ sessionId }: { sessionId: string }) => {
      graphReads.push(sessionId);
      throw new ArborError('NOT_FOUND', `No session ${sessionId}`);
    },
  } as unknown as ArborApi;
  return { api, graphReads };
}

describe('findSessionId', () => {
  it('finds a full id or a unique prefix without reading the graph', async () => {
    const { api, graphReads } = apiOf(['abc123', 'abd456', 'abc']);
    const signal = new AbortController().signal;
    expect(await findSessionId(api, 'abc', signal)).toBe('abc');
    expect(await findSessionId(api, 'abd', signal)).toBe('abd456');
    expect(await findSessionId(api, 'abc1', signal)).toBe('abc123');
    expect(graphReads).toEqual([]);
  });

  it('says NOT_FOUND for no match and BAD_REQUEST for an ambiguous prefix', async () => {
    const { api } = apiOf(['abc123', 'abd456']);
    const signal = new AbortController().signal;
    await expect(findSessionId(api, 'zz', signal)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(findSessionId(api, 'ab', signal)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
