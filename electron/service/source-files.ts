/**
 * "Source deleted" (issue 15, the archive): a session none of whose transcript files is still on disk — Claude
 * Code's cleanup (`cleanupPeriodDays`) or the user removed them. Arbor's store keeps every line it imported, so
 * nothing about the session degrades; the list and the session header only say so.
 *
 * Checked on every list, cheaply and without holding it up: one stat per file until one exists (a session's own
 * transcript first, so most sessions cost one stat), all in parallel, for at most `budgetMs`; what is not known by
 * then is answered as last known, and when the rest of the check changes a session's mark, `onChanged` hears it
 * (the service emits `sessions.changed`, so the list asks again). 20k stats took ~1 s on a loaded 2-core machine.
 */
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionSourceFiles } from '../db/session-source-files';

export type FileExists = (path: string) => Promise<boolean>;

const onDisk: FileExists = (path) =>
  stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
  );

/** How long a list waits for the stats before it answers with what is known. */
export const SOURCE_CHECK_BUDGET_MS = 50;

export interface SourceDeletedMarks {
  /** The ids of these sessions whose transcript files are all gone (a session with no files is never marked). */
  deletedOf(sessionIds: readonly string[]): Promise<Set<string>>;
}

export interface SourceDeletedOptions {
  readonly exists?: FileExists;
  readonly budgetMs?: number;
  /** Sessions whose mark changed after a list was answered without it. */
  readonly onChanged?: (sessionIds: readonly string[]) => void;
}

export function createSourceDeletedMarks(files: SessionSourceFiles, options: SourceDeletedOptions = {}): SourceDeletedMarks {
  const exists = options.exists ?? onDisk;
  const budgetMs = options.budgetMs ?? SOURCE_CHECK_BUDGET_MS;
  /** The last answer per session: true when its files were all gone. */
  const known = new Map<string, boolean>();
  /** Sessions a list was answered for before their check ended: a change among them is told once it is known. */
  const answeredEarly = new Set<string>();
  /** One check at a time; ids asked meanwhile join the next one (lists come in bursts while an import runs). */
  let running = false;
  let next: { readonly ids: Set<string>; readonly done: Promise<void>; readonly finish: () => void } | null = null;

  async function check(sessionIds: readonly string[]): Promise<void> {
    const changed: string[] = [];
    await Promise.all(
      [...files.of(sessionIds)].map(async ([sessionId, paths]) => {
        let deleted = paths.length > 0;
        for (const path of paths) {
          if (await exists(path)) {
            deleted = false;
            break;
          }
        }
        if ((known.get(sessionId) ?? false) !== deleted) changed.push(sessionId);
        known.set(sessionId, deleted);
      }),
    );
    const late = changed.filter((id) => answeredEarly.has(id));
    for (const id of sessionIds) answeredEarly.delete(id);
    if (late.length > 0) options.onChanged?.(late);
  }

  function kick(): void {
    if (running || next === null) return;
    const round = next;
    next = null;
    running = true;
    void check([...round.ids])
      .catch(() => undefined)
      .finally(() => {
        running = false;
        round.finish();
        kick();
      });
  }

  function schedule(sessionIds: readonly string[]): Promise<void> {
    if (next === null) {
      let finish = (): void => undefined;
      const done = new Promise<void>((resolve) => (finish = resolve));
      next = { ids: new Set(), done, finish };
    }
    for (const id of sessionIds) next.ids.add(id);
    const { done } = next;
    kick();
    return done;
  }

  return {
    async deletedOf(sessionIds) {
      const checked = await Promise.race([schedule(sessionIds).then(() => true), sleep(budgetMs).then(() => false)]);
      if (!checked) for (const id of sessionIds) answeredEarly.add(id);
      return new Set(sessionIds.filter((id) => known.get(id) === true));
    },
  };
}
