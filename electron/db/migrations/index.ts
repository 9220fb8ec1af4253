/**
 * Numbered migrations, applied in order; `PRAGMA user_version` records the highest one run, so numbers only
 * grow (009 was never used: numbers were handed to changes made in parallel). To add one: write
 * `NNN-what.ts` with a number above the last, append it here, never edit a shipped one.
 */
import type { WritableDB } from '../database';
import { reclaimSpace, type ReclaimOptions, type ReclaimOutcome } from './reclaim-space';
import { migration001Sessions } from './001-sessions';
import { migration002SearchTextFromRaw } from './002-search-text-from-raw';
import { migration003GraphIndex } from './003-graph-index';
import { migration004Snapshots } from './004-snapshots';
import { migration005SnapshotLinks } from './005-snapshot-links';
import { migration006Operations } from './006-operations';
import { migration007Forks } from './007-forks';
import { migration008OperationFolders } from './008-operation-folders';
import { migration010SearchOrder } from './010-search-order';
import { migration011LinkState } from './011-link-state';
import { migration013CompactStore } from './013-compact-store';
import { migration014SessionLineage } from './014-session-lineage';
import { migration015SessionRecords } from './015-session-records';
import { migration017SessionListColumns } from './017-session-list-columns';
import { migration020NodeRenames } from './020-node-renames';
import { migration022SessionGraphs } from './022-session-graphs';
import { migration023TokenUsage } from './023-token-usage';
import { migration024Forget } from './024-forget';
import { migration025SearchMerge } from './025-search-merge';
import { migration026GraphDropsByWriter } from './026-graph-drops-by-writer';
import { migration027FileHistoryCopies } from './027-file-history-copies';
import { migration030MergeRecords } from './030-merge-records';
import { migration033UsageDeletedByList } from './033-usage-deleted-by-list';
import { migration034LongLines } from './034-long-lines';
import { migration035RawBlocks } from './035-raw-blocks';
import { migration037SearchChunkMemory } from './037-search-chunk-memory';
import { migration038FormatCounts } from './038-format-counts';
import { migration039KindProjectFacets } from './039-kind-project-facets';
import { migration040ParseStates } from './040-parse-states';
import { migration041ResultIds } from './041-result-ids';
import { migration042NarrowGraphIndex } from './042-narrow-graph-index';
import { migration043TwoLetterPrefixes } from './043-two-letter-prefixes';
import { migration045ParseStateKeys } from './045-parse-state-keys';

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: WritableDB): void;
  /**
   * For a migration merged after a higher-numbered one (numbers are handed out in parallel): whether a store
   * already has it. A store whose version is past this one's number but lacks it still gets it.
   */
  isApplied?(db: WritableDB): boolean;
}

export const MIGRATIONS: readonly Migration[] = [migration001Sessions, migration002SearchTextFromRaw, migration003GraphIndex, migration004Snapshots, migration005SnapshotLinks, migration006Operations, migration007Forks, migration008OperationFolders, migration010SearchOrder, migration011LinkState, migration013CompactStore, migration014SessionLineage, migration015SessionRecords, migration017SessionListColumns, migration020NodeRenames, migration022SessionGraphs, migration023TokenUsage, migration024Forget, migration025SearchMerge, migration026GraphDropsByWriter, migration027FileHistoryCopies, migration030MergeRecords, migration033UsageDeletedByList, migration034LongLines, migration035RawBlocks, migration037SearchChunkMemory, migration038FormatCounts, migration039KindProjectFacets, migration040ParseStates, migration041ResultIds, migration042NarrowGraphIndex, migration043TwoLetterPrefixes, migration045ParseStateKeys];

export function currentVersion(db: WritableDB): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The version a store has once every migration ran. */
export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
}

/**
 * Runs the migrations the store has not had. When some ran, the space the rewritten tables left free is
 * given back (reclaim-space.ts); its outcome is returned (null when nothing ran), and `onSkipped` hears why
 * it was not (a read-only folder, a full disk).
 */
export function migrate(
  db: WritableDB,
  migrations: readonly Migration[] = MIGRATIONS,
  options: ReclaimOptions & { readonly onSkipped?: (reason: string) => void } = {},
): ReclaimOutcome | null {
  let ran = false;
  const due = (migration: Migration): boolean =>
    migration.version > currentVersion(db) || (migration.isApplied !== undefined && !migration.isApplied(db));
  for (const migration of migrations) {
    if (!due(migration)) continue;
    // Read again inside the write transaction: another process opening the store may have just run it.
    db.transaction(() => {
      if (!due(migration)) return;
      migration.up(db);
      db.pragma(`user_version = ${Math.max(migration.version, currentVersion(db))}`);
      ran = true;
    })();
  }
  if (!ran) return null;
  const outcome = reclaimSpace(db, options);
  if (outcome.action === 'skipped') (options.onSkipped ?? ((reason) => process.stderr.write(`arbor: ${reason}\n`)))(outcome.reason);
  return outcome;
}
