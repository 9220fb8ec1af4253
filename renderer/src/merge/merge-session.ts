/**
 * One merge the user is working on: the service's preview, each file's progress, apply and undo.
 * A small zustand store per merge (like the graph view's store), created with the client injected.
 * The result documents (editor states, possibly megabytes) live beside the store, not in it: the
 * editor hands its newest state on every change, and the store only hears about counts that changed.
 */
import type { EditorState } from '@codemirror/state';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { NodeId } from '../../../shared/model';
import type { MergeFileSides, MergeOutcome, MergePreview, MergeSideName, OperationOutcome } from '../../../shared/operations';
import type { ArborClient } from '../client/arbor-client';
import { isCancellation } from '../state/notice-slice';
import { layoutMerge, type MergeLayout } from './conflict-locations';
import { createMergeDocument, openConflictCount, type MergeTexts } from './merge-document';
import { buildResolutions, conflictsLeft, fileViewKind, orderFiles, type FileChoice, type FileProgress } from './merge-files';
import { paneWords, type PaneWords } from './word-changes';

export type MergePhase = 'loading' | 'failed' | 'ready' | 'applying' | 'applied' | 'undoing' | 'undone';

/** A file's loaded material: its three versions and, for text files, the result document and pane layout. */
export interface MergeFileMaterial {
  readonly sides: MergeFileSides;
  readonly initial: EditorState | null;
  readonly layout: MergeLayout | null;
  /** Text files: the words each side changed, per pane. */
  readonly words: PaneWords | null;
}

export interface MergeSessionState {
  readonly ours: NodeId;
  readonly theirs: NodeId;
  readonly phase: MergePhase;
  readonly preview: MergePreview | null;
  readonly error: string | null;
  readonly openPath: string | null;
  readonly files: Readonly<Record<string, FileProgress>>;
  /** "Use ours / theirs for the rest": settles every conflict the user left open. */
  readonly conflictSide: MergeSideName | null;
  /** The last apply's answer (also kept when it stopped: workspace changed, conflicts). */
  readonly outcome: MergeOutcome | null;
  readonly undoOutcome: OperationOutcome | null;
  load(into?: string): Promise<void>;
  openFile(path: string): Promise<void>;
  choose(path: string, choice: FileChoice | null): void;
  setConflictSide(side: MergeSideName | null): void;
  /** The result editor's newest state for a text file. */
  documentChanged(path: string, state: EditorState): void;
  apply(): Promise<void>;
  undo(): Promise<void>;
}

export interface MergeSession {
  readonly store: StoreApi<MergeSessionState>;
  /** The file's material once loaded (null before). */
  material(path: string): MergeFileMaterial | null;
  /** The newest result document of a text file (the user's edits included). */
  document(path: string): EditorState | undefined;
  dispose(): void;
}

export interface MergeSessionOptions {
  readonly ours: NodeId;
  readonly theirs: NodeId;
  /** A merge node was recorded (refresh the graph and select it). */
  onMerged?(nodeId: NodeId): void;
  /** The merge was undone. */
  onUndone?(): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createMergeSession(client: ArborClient, options: MergeSessionOptions): MergeSession {
  const materials = new Map<string, MergeFileMaterial>();
  const documents = new Map<string, EditorState>();
  const loading = new Map<string, Promise<void>>();
  const lifetime = new AbortController();
  const signal = lifetime.signal;

  const store = createStore<MergeSessionState>()((set, get) => {
    const setFile = (path: string, progress: FileProgress): void => set((s) => ({ files: { ...s.files, [path]: progress } }));

    const loadFile = async (path: string): Promise<void> => {
      const preview = get().preview;
      const entry = preview?.files.find((f) => f.path === path);
      if (!preview || !entry) return;
      setFile(path, { load: 'loading', view: null, openConflicts: 0, changed: false, choice: null });
      try {
        const sides = await client.call('merge.file', { token: preview.token, path }, { signal });
        const view = fileViewKind(entry, sides);
        let initial: EditorState | null = null;
        let layout: MergeLayout | null = null;
        let words: PaneWords | null = null;
        if (view === 'text') {
          const texts: MergeTexts = { base: sides.base, ours: sides.ours, theirs: sides.theirs };
          const merged = createMergeDocument(texts);
          initial = merged.state;
          layout = layoutMerge(merged);
          words = paneWords(texts, merged.changes);
          documents.set(path, initial);
        }
        materials.set(path, { sides, initial, layout, words });
        setFile(path, { load: 'ready', view, openConflicts: initial ? openConflictCount(initial) : 0, changed: false, choice: null });
      } catch (error) {
        if (isCancellation(error)) return;
        set({ error: `Could not load ${path}: ${messageOf(error)}` });
        setFile(path, { load: 'error', view: null, openConflicts: 0, changed: false, choice: null });
      }
    };

    return {
      ours: options.ours,
      theirs: options.theirs,
      phase: 'loading',
      preview: null,
      error: null,
      openPath: null,
      files: {},
      conflictSide: null,
      outcome: null,
      undoOutcome: null,

      async load(into) {
        set({ phase: 'loading', error: null, outcome: null });
        try {
          const request = into === undefined ? { nodeIdA: options.ours, nodeIdB: options.theirs } : { nodeIdA: options.ours, nodeIdB: options.theirs, into };
          const preview = await client.call('merge.preview', request, { signal });
          // A new preview (another target) keeps the user's work on files whose versions did not change.
          const previous = get().preview;
          if (previous !== null && previous.token !== preview.token) {
            for (const path of [...materials.keys()]) {
              if (!preview.files.some((f) => f.path === path)) {
                materials.delete(path);
                documents.delete(path);
              }
            }
          }
          const first = orderFiles(preview.files)[0];
          set({ preview, phase: 'ready', openPath: get().openPath ?? first?.path ?? null });
          const open = get().openPath;
          if (open !== null && !materials.has(open)) await get().openFile(open);
        } catch (error) {
          if (isCancellation(error)) return;
          set({ phase: 'failed', error: messageOf(error) });
        }
      },

      async openFile(path) {
        set({ openPath: path });
        if (materials.has(path) && get().files[path]?.load === 'ready') return;
        let pending = loading.get(path);
        if (pending === undefined) {
          pending = loadFile(path).finally(() => loading.delete(path));
          loading.set(path, pending);
        }
        await pending;
      },

      choose(path, choice) {
        const progress = get().files[path];
        if (progress?.view !== 'choice') return;
        setFile(path, { ...progress, choice, changed: choice !== null });
      },

      setConflictSide(side) {
        set({ conflictSide: side });
      },

      documentChanged(path, state) {
        documents.set(path, state);
        const progress = get().files[path];
        if (progress === undefined) return;
        const openConflicts = openConflictCount(state);
        const changed = progress.changed || state.doc !== materials.get(path)?.initial?.doc;
        if (openConflicts !== progress.openConflicts || changed !== progress.changed) setFile(path, { ...progress, openConflicts, changed });
      },

      async apply() {
        const { preview, files, conflictSide, phase } = get();
        if (!preview || phase !== 'ready') return;
        if (conflictsLeft(preview, files) > 0 && conflictSide === null) return;
        set({ phase: 'applying', error: null, outcome: null });
        try {
          const resolutions = buildResolutions(preview, files, (path) => documents.get(path), conflictSide);
          const request = conflictSide === null ? { token: preview.token, resolutions } : { token: preview.token, resolutions, conflictSide };
          const outcome = await client.call('merge.apply', request, { signal });
          set({ outcome, phase: outcome.status === 'applied' ? 'applied' : 'ready' });
          if (outcome.status === 'applied') options.onMerged?.(outcome.mergeNode);
        } catch (error) {
          if (isCancellation(error)) return;
          set({ phase: 'ready', error: `The merge was not applied: ${messageOf(error)}` });
        }
      },

      async undo() {
        const outcome = get().outcome;
        if (outcome?.status !== 'applied' || get().phase !== 'applied') return;
        set({ phase: 'undoing', error: null });
        try {
          const undoOutcome = await client.call('operations.undo', { operationId: outcome.operation }, { signal });
          set({ undoOutcome, phase: undoOutcome.status === 'applied' ? 'undone' : 'applied' });
          if (undoOutcome.status === 'applied') options.onUndone?.();
        } catch (error) {
          if (isCancellation(error)) return;
          set({ phase: 'applied', error: `The merge was not undone: ${messageOf(error)}` });
        }
      },
    };
  });

  return {
    store,
    material: (path) => materials.get(path) ?? null,
    document: (path) => documents.get(path),
    dispose: () => lifetime.abort(),
  };
}
