/** The transcript files each session was read from (the archive's "source deleted" mark checks they still exist). */
import type { DatabaseHandles } from './database';

export interface SessionSourceFiles {
  /** Session id → its transcript files' paths, its own transcripts before subagent files. */
  of(sessionIds: readonly string[]): Map<string, string[]>;
}

export function createSessionSourceFiles(handles: DatabaseHandles): SessionSourceFiles {
  // One read for every session: a query per listed session was the list's cost at 20k sessions.
  const all = handles.read.prepare<[], { session_id: string; path: string }>(
    "SELECT session_id, path FROM files WHERE session_id IS NOT NULL ORDER BY session_id, role != 'main', id",
  );
  return {
    of(sessionIds) {
      const wanted = new Set(sessionIds);
      const files = new Map<string, string[]>();
      for (const row of all.iterate()) {
        if (!wanted.has(row.session_id)) continue;
        const paths = files.get(row.session_id);
        if (paths === undefined) files.set(row.session_id, [row.path]);
        else paths.push(row.path);
      }
      return files;
    },
  };
}
