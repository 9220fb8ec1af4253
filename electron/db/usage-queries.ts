/**
 * The read side of tokens and cost (migration 023): counted replies summed per group and model, for the
 * service to price (shared/usage.ts). Sessions, projects, agents and days come from the reply's node and its
 * session row; a day is the reply's UTC date.
 */
import type { StatsFilters, StatsGrouping, TokenCounts, UsageGroupRow } from '../../shared/usage';
import type { ReadableDB } from './database';

interface GroupRow {
  key: string;
  agent: string;
  model: string | null;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  r_input: number;
  r_output: number;
  r_cache_read: number;
  r_cache_write: number;
  reported_usd: number;
  replies: number;
}

const KEYS: Record<StatsGrouping | 'all', string> = {
  day: "coalesce(substr(n.timestamp, 1, 10), 'unknown')",
  model: "coalesce(u.model, 'unknown')",
  project: "coalesce(s.project, 'unknown project')",
  agent: 's.source',
  session: 'n.session_id',
  all: "''",
};

const SUMS = `s.source AS agent, u.model AS model,
  sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cache_read, sum(u.cache_write) AS cache_write,
  sum(CASE WHEN u.reported_usd IS NULL THEN 0 ELSE u.input END) AS r_input,
  sum(CASE WHEN u.reported_usd IS NULL THEN 0 ELSE u.output END) AS r_output,
  sum(CASE WHEN u.reported_usd IS NULL THEN 0 ELSE u.cache_read END) AS r_cache_read,
  sum(CASE WHEN u.reported_usd IS NULL THEN 0 ELSE u.cache_write END) AS r_cache_write,
  coalesce(sum(u.reported_usd), 0) AS reported_usd, count(*) AS replies`;

const FILTERS = `(@project IS NULL OR s.project = @project) AND (@agent IS NULL OR s.source = @agent)
  AND (@from IS NULL OR substr(n.timestamp, 1, 10) >= @from) AND (@to IS NULL OR substr(n.timestamp, 1, 10) <= @to)
  AND (@session IS NULL OR n.session_id = @session)`;

/** Steps followed from a branch's head towards its root at most (a parent cycle stops there too). */
const BRANCH_DEPTH = 1_000_000;

type FilterParams = { project: string | null; agent: string | null; from: string | null; to: string | null; session: string | null };

export function prepareUsageQueries(db: ReadableDB) {
  const grouped = Object.fromEntries(
    Object.entries(KEYS).map(([by, key]) => [
      by,
      db.prepare<FilterParams, GroupRow>(
        `SELECT ${key} AS key, ${SUMS}
         FROM node_usage u JOIN nodes n ON n.seq = u.node_seq JOIN sessions s ON s.id = n.session_id
         WHERE ${FILTERS} GROUP BY 1, 2, 3 ORDER BY 1`,
      ),
    ]),
  ) as Record<StatsGrouping | 'all', ReturnType<typeof db.prepare<FilterParams, GroupRow>>>;
  return {
    grouped,
    // Root → head by parents (a compaction root by its logical parent), whatever sessions the steps are in.
    branch: db.prepare<[string], GroupRow>(
      `WITH RECURSIVE path(seq, parent, depth) AS (
         SELECT seq, coalesce(parent_id, (SELECT other_id FROM edges e WHERE e.node_seq = nodes.seq AND e.kind = 'logical' LIMIT 1)), 0
           FROM nodes WHERE id = ?
         UNION ALL
         SELECT n.seq, coalesce(n.parent_id, (SELECT other_id FROM edges e WHERE e.node_seq = n.seq AND e.kind = 'logical' LIMIT 1)), p.depth + 1
           FROM path p JOIN nodes n ON n.id = p.parent WHERE p.depth < ${BRANCH_DEPTH}
       )
       SELECT '' AS key, ${SUMS}
       FROM (SELECT DISTINCT seq FROM path) p JOIN node_usage u ON u.node_seq = p.seq JOIN nodes n ON n.seq = u.node_seq
         JOIN sessions s ON s.id = n.session_id
       GROUP BY 2, 3`,
    ),
  };
}
export type UsageQueries = ReturnType<typeof prepareUsageQueries>;

function toGroupRow(row: GroupRow): UsageGroupRow {
  const tokens: TokenCounts = { input: row.input, output: row.output, cacheRead: row.cache_read, cacheWrite: row.cache_write };
  const reportedTokens: TokenCounts = { input: row.r_input, output: row.r_output, cacheRead: row.r_cache_read, cacheWrite: row.r_cache_write };
  return { key: String(row.key), agent: row.agent, model: row.model, tokens, reportedTokens, reportedUsd: row.reported_usd, replies: row.replies };
}

export function usageGroups(queries: UsageQueries, by: StatsGrouping | 'all', filters: StatsFilters): UsageGroupRow[] {
  return queries.grouped[by]
    .all({ project: filters.project ?? null, agent: filters.agent ?? null, from: filters.from ?? null, to: filters.to ?? null, session: filters.sessionId ?? null })
    .map(toGroupRow);
}

export function branchUsage(queries: UsageQueries, headId: string): UsageGroupRow[] {
  return queries.branch.all(headId).map(toGroupRow);
}
