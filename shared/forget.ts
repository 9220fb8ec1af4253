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
export const GC_SCHEDULES: readonly GcSchedule[] = ['daily', 'weekly', 'off'];
