/**
 * One session tree per open session version, read by the graph and the conversation alike. The graph view's
 * layout worker builds it (it needs it for the layout anyway) and hands it in; the conversation reads it from
 * here instead of building its own from the same nodes (100k nodes: ~150 ms on the UI thread, during the
 * open). A version is the node list the session graph arrived with: a refresh (live import, a fork) brings
 * a new list and so a new tree; switching Graph → Both → Conversation brings none.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { buildSessionStructure, DEFAULT_STRUCTURE_OPTIONS, type SessionStructure } from '../../../shared/graph/session-structure';
import type { SessionGraph, SessionId } from '../../../shared/model';

export interface SessionTreeEntry {
  /** The version this entry is about: the node list of the newest graph claimed or built. */
  readonly version: SessionGraph['nodes'];
  /** The tree of `version`, or null while the graph view's worker builds it. */
  readonly built: SessionStructure | null;
  /** The newest tree there is for the session (of an earlier version while `built` is on its way). */
  readonly shown: SessionStructure | null;
}

export interface SessionTreesState {
  readonly entries: ReadonlyMap<SessionId, SessionTreeEntry>;
  /** How many trees were built (here or in the graph's worker): one per session version. */
  readonly builds: number;
  /** The graph view's worker is building this version: nobody else should. */
  claim(graph: SessionGraph): void;
  /** The tree of `graph`'s version, built elsewhere (the layout worker). */
  publish(graph: SessionGraph, tree: SessionStructure): void;
  /** The claimed build failed or was dropped: whoever needs the tree builds it (ensure). */
  release(graph: SessionGraph): void;
  /** Builds the tree of `graph`'s version here unless it is built or on its way. */
  ensure(graph: SessionGraph): void;
}

export type SessionTreesStore = StoreApi<SessionTreesState>;

/** Sessions whose trees are kept: the open one and the one before (going back to it costs no build). */
const KEPT_SESSIONS = 2;

export function createSessionTrees(build: (graph: SessionGraph) => SessionStructure = buildTree): SessionTreesStore {
  return createStore<SessionTreesState>()((set, get) => {
    const put = (sessionId: SessionId, entry: SessionTreeEntry, built: number): void => {
      const entries = new Map(get().entries);
      entries.delete(sessionId); // re-inserted last: the most recent
      entries.set(sessionId, entry);
      while (entries.size > KEPT_SESSIONS) entries.delete(entries.keys().next().value!);
      set({ entries, builds: get().builds + built });
    };
    return {
      entries: new Map(),
      builds: 0,
      claim(graph) {
        const entry = get().entries.get(graph.session.id);
        if (entry?.version === graph.nodes) return;
        put(graph.session.id, { version: graph.nodes, built: null, shown: entry?.shown ?? null }, 0);
      },
      publish(graph, tree) {
        const entry = get().entries.get(graph.session.id);
        // A tree of a version already replaced by a newer one is not shown.
        if (entry !== undefined && entry.version !== graph.nodes) return;
        if (entry?.built != null) return;
        put(graph.session.id, { version: graph.nodes, built: tree, shown: tree }, 1);
      },
      release(graph) {
        const entry = get().entries.get(graph.session.id);
        if (entry === undefined || entry.version !== graph.nodes || entry.built !== null) return;
        // Back to the newest tree there is, so a reader waiting for this version builds it (useSessionTree).
        const entries = new Map(get().entries);
        if (entry.shown === null) entries.delete(graph.session.id);
        else entries.set(graph.session.id, { version: entry.shown.nodes as SessionGraph['nodes'], built: entry.shown, shown: entry.shown });
        set({ entries });
      },
      ensure(graph) {
        const entry = get().entries.get(graph.session.id);
        if (entry?.version === graph.nodes) return;
        const tree = build(graph);
        put(graph.session.id, { version: graph.nodes, built: tree, shown: tree }, 1);
      },
    };
  });
}

function buildTree(graph: SessionGraph): SessionStructure {
  return buildSessionStructure(graph.nodes, DEFAULT_STRUCTURE_OPTIONS, graph.workspaceNodes ?? []);
}

/** The app's session trees (module-level: the graph view and the conversation need no shared provider). */
export const sessionTrees: SessionTreesStore = createSessionTrees();

/**
 * The newest tree of `graph`'s session (null until one is built), for a reader that does not build it
 * itself when the graph view is building it. After the graph view's open effect (siblings before it in the
 * tree run theirs first), builds it here if nobody is.
 */
export function useSessionTree(graph: SessionGraph, store: SessionTreesStore = sessionTrees): SessionStructure | null {
  const sessionId = graph.session.id;
  const shown = useStore(store, (s) => s.entries.get(sessionId)?.shown ?? null);
  // Nobody has this version, built or on its way (never claimed, or the claim was released).
  const unclaimed = useStore(store, (s) => s.entries.get(sessionId)?.version !== graph.nodes);
  useEffect(() => {
    if (unclaimed) store.getState().ensure(graph);
  }, [graph, store, unclaimed]);
  return shown;
}

/** True once the tree of exactly `graph`'s version is built (the graph view has its first layout). */
export function useSessionTreeBuilt(graph: SessionGraph | null, store: SessionTreesStore = sessionTrees): boolean {
  return useStore(store, (s) => {
    if (graph === null) return false;
    const entry = s.entries.get(graph.session.id);
    return entry !== undefined && entry.version === graph.nodes && entry.built !== null;
  });
}
