/**
 * Reads a session's nodes in pages, giving the event loop back between them: a 100k-node session took
 * seconds of one uninterrupted task, so a call behind it (the session the user clicked while the newest
 * one was still opening) waited for all of it, and a cancelled open could not stop. Between pages a
 * cancelled call stops with CancelledError.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FIRST_PAGE } from '../db/session-queries';
import type { SessionStore } from '../db/session-store';
import { throwIfAborted } from '../../shared/errors';
import type { NodeSummary } from '../../shared/model';

/** ~50 ms of reading on this machine's cores, unloaded. */
export const NODE_PAGE_ROWS = 8_192;

export async function readSessionNodes(
  store: Pick<SessionStore, 'getSessionNodesPage'>,
  sessionId: string,
  signal?: AbortSignal,
  pageRows: number = NODE_PAGE_ROWS,
): Promise<NodeSummary[]> {
  let page = store.getSessionNodesPage(sessionId, FIRST_PAGE, pageRows);
  if (page.next === null) return page.nodes;
  const nodes = page.nodes;
  while (page.next !== null) {
    await nextTurn();
    throwIfAborted(signal);
    page = store.getSessionNodesPage(sessionId, page.next, pageRows);
    for (const node of page.nodes) nodes.push(node);
  }
  return nodes;
}
