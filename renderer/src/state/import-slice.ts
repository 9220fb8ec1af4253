import type { ImportProgress, ImportReport, SourceLocation } from '../../../shared/model';
import { isCancellation } from './notice-slice';
import type { SliceCreator } from './app-state';

export type ImportPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

export interface ImportSlice {
  readonly importLocations: readonly SourceLocation[];
  readonly importPhase: ImportPhase;
  readonly importProgress: ImportProgress | null;
  readonly importReport: ImportReport | null;
  readonly demoStatus: 'idle' | 'creating' | 'error';
  /**
   * Imports the default locations (or `paths`: "Import folder…") in the background; resolves when the
   * import ends (any way).
   */
  runImport(paths?: readonly string[]): Promise<void>;
  cancelImport(): void;
  applyImportProgress(progress: ImportProgress): void;
  /** Writes and imports the demo session, then opens it. */
  createDemo(): Promise<void>;
}

export const createImportSlice: SliceCreator<ImportSlice> = (client) => (set, get) => {
  let running: AbortController | null = null;
  return {
    importLocations: [],
    importPhase: 'idle',
    importProgress: null,
    importReport: null,
    demoStatus: 'idle',
    async runImport(paths) {
      if (running) return;
      const request = (running = new AbortController());
      set({ importPhase: 'running', importProgress: null, importReport: null });
      try {
        if (paths === undefined) {
          const { locations } = await client.call('import.locations', {}, { signal: request.signal });
          set({ importLocations: locations });
        }
        const report = await client.call('import.run', paths === undefined ? {} : { paths: [...paths] }, { signal: request.signal });
        set({ importPhase: 'done', importReport: report });
      } catch (error) {
        if (isCancellation(error) || request.signal.aborted) {
          set({ importPhase: 'cancelled' });
        } else {
          set({ importPhase: 'failed' });
          get().reportError(error, 'Import failed');
        }
      } finally {
        running = null;
      }
      // Whatever happened, show what is in the store now.
      await get().loadSessions();
    },
    cancelImport() {
      running?.abort();
    },
    applyImportProgress(progress) {
      // Progress for a job we are not running (another window, a CLI import) still tells the user something.
      set({ importProgress: progress });
    },
    async createDemo() {
      if (get().demoStatus === 'creating') return;
      set({ demoStatus: 'creating' });
      try {
        const { sessionId } = await client.call('demo.create', {});
        await get().loadSessions();
        set({ demoStatus: 'idle' });
        await get().openSession(sessionId);
      } catch (error) {
        set({ demoStatus: 'error' });
        get().reportError(error, 'Could not create the demo session');
      }
    },
  };
};
