/**
 * `node_usage` rows go with their node through the deletion's one table list (session-delete-tables.ts), which
 * the schema test checks against sqlite_master; migration 023's trigger on `nodes` deleted them a second time,
 * and a trigger on `nodes` costs every delete of a node its price. The trigger goes; no row changes.
 */
import type { Migration } from './index';

export const migration033UsageDeletedByList: Migration = {
  version: 33,
  name: 'usage-deleted-by-list',
  up(db) {
    db.exec('DROP TRIGGER IF EXISTS node_usage_node_removed');
  },
};
