/**
 * Snapshots Arbor takes for its own reasons, not only by hand: a PostToolUse hook's capture (linked to the
 * tool call it followed), a fork's first state, a merge result (with its second parent). One table keeps
 * them all, so every exact state is found the same way.
 */
import type { Migration } from './index';

export const migration005SnapshotLinks: Migration = {
  version: 5,
  name: 'snapshot-links',
  up(db) {
    db.exec(`
      -- manual | hook | fork | merge (WorkspaceNodeKind without the 'hook-' spelling: see snapshot-records.ts)
      ALTER TABLE snapshots ADD COLUMN kind TEXT NOT NULL DEFAULT 'manual';
      -- hook snapshots: the tool call (tool_use id) the capture followed
      ALTER TABLE snapshots ADD COLUMN tool_use_id TEXT;
      -- merge snapshots: the second parent (theirs); parent_id is ours
      ALTER TABLE snapshots ADD COLUMN second_parent_id TEXT;
      CREATE INDEX snapshots_by_tool_use ON snapshots(tool_use_id) WHERE tool_use_id IS NOT NULL;
    `);
  },
};
