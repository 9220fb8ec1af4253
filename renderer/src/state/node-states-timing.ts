/**
 * When the graph's workspace-state markers are asked for: once the graph's first view is drawn, not while it
 * is laid out. `sessions.states` is a query of every node's state on the main side; sent with the open, it
 * competed with the layout worker and the first mount for the same cores.
 */
import { useEffect } from 'react';
import type { SessionGraph, SessionId } from '../../../shared/model';
import { useSessionTreeBuilt, type SessionTreesStore, sessionTrees } from './session-trees';

export function useNodeStatesAfterFirstView(
  graph: SessionGraph | null,
  loadNodeStates: (sessionId: SessionId) => Promise<void>,
  store: SessionTreesStore = sessionTrees,
): void {
  // The graph view publishes the tree with its first layout; each new version (a refresh after a fork) asks again.
  const drawn = useSessionTreeBuilt(graph, store);
  useEffect(() => {
    if (graph === null || !drawn) return;
    return afterNextPaint(() => void loadNodeStates(graph.session.id));
  }, [graph, drawn, loadNodeStates]);
}

/** Runs `run` after the frame now being prepared is painted (a timeout queued from the frame's callback). */
function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(run, 0);
    return () => clearTimeout(timer!);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
}
