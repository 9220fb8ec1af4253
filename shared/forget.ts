/** Forgetting (issue 15): what deleting sessions removes, and what a gc reclaims. Pure types, both sides. */
import type { SessionId } from './model';

/** What a deletion removes: the confirmation lists it, the result repeats it. */
export interface SessionDeletePlan {
  readonly sessionIds: readonly SessionId[];
  /** Ids asked for that name no stored session. */
  readonly missing: readonly string[];
  /** Sessions that go on from a doomed one (forks, continuations): their first steps are stored in it. */
  readonly dependants: readonly { readonly sessionId: SessionId; readonly kind: string; readonly of: SessionId; readonly title: string }[];
  readonly nodes: number;
  readonly records: number;
  /** Bytes of raw transcript lines stored for them. */
  readonly rawBytes: number;
  readonly indexEntries: number;
  readonly snapshots: number;
  readonly operations: number;
  /** Transcript files whose rows go; `onDisk`: still there, so the next import would bring it back (a tombstone stops it). */
  readonly files: readonly { readonly path: string; readonly onDisk: boolean }[];
  /** Arbor forks of these sessions: with `withForks` their folders (only folders Arbor created) and transcripts go too. */
  readonly forks: readonly { readonly fork: string; readonly dir: string; readonly dirCreated: boolean; readonly transcript: string | null }[];
}

/** How a dependant goes on from the session it depends on, in the words the Delete dialog and `arbor delete` share. */
export const DEPENDANT_KINDS: Readonly<Record<string, string>> = { fork: 'a fork of it', continues: 'continues it', follows: 'follows it' };

export type SessionDeleteOutcome =
  /** A dry run: nothing was removed. */
  | { readonly status: 'preview'; readonly plan: SessionDeletePlan }
  /** Refused, nothing removed: dependants would lose their first steps; ask again with `withForks` to take them too. */
  | { readonly status: 'has-dependants'; readonly plan: SessionDeletePlan }
  | {
      readonly status: 'deleted';
      readonly plan: SessionDeletePlan;
      readonly reclaimed: GcReclaimed;
      /** Files on disk remembered as deleted (the next import skips them). */
      readonly tombstones: number;
      readonly problems: readonly string[];
    };

export interface GcReclaimed {
  readonly bytes: number;
  readonly objects: number;
  readonly folders: number;
}

export interface OrphanFork {
  readonly fork: string;
  readonly sessionId: SessionId;
  readonly dir: string;
  readonly transcript: string | null;
}

export interface GcReport {
  readonly dryRun: boolean;
  readonly reclaimed: GcReclaimed;
  /** Forks whose folder was deleted by hand: offered for removal (`orphans`: removed). */
  readonly orphans: readonly OrphanFork[];
  readonly orphansRemoved: readonly string[];
  /** Temporary forks past their time to live, removed (a dry run: that would be). */
  readonly expired: readonly string[];
  readonly problems: readonly string[];
}

export type GcSchedule = 'daily' | 'weekly' | 'off';

/** When the background gc runs: the user's schedule (stored in the store's meta), its last run and its next. */
export interface GcScheduleState {
  readonly schedule: GcSchedule;
  readonly lastRun: string | null;
  /** null when the schedule is off. */
  readonly nextRun: string | null;
}

const PERIOD_MS: Readonly<Record<GcSchedule, number | null>> = { daily: 86_400_000, weekly: 7 * 86_400_000, off: null };

/** The next run: one period after the last (now, when it never ran); null when off. */
export function nextGcRun(schedule: GcSchedule, lastRun: string | null, now: Date): string | null {
  const period = PERIOD_MS[schedule];
  if (period === null) return null;
  return lastRun === null ? now.toISOString() : new Date(Date.parse(lastRun) + period).toISOString();
}

export function gcDue(state: GcScheduleState, now: Date): boolean {
  return state.nextRun !== null && Date.parse(state.nextRun) <= now.getTime();
}
export const GC_SCHEDULES: readonly GcSchedule[] = ['daily', 'weekly', 'off'];
