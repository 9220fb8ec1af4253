/**
 * Tokens and cost (issue 15). `node_usage`: one row per reply an agent was billed for, on the node that first
 * carried it (usage-replies.ts: a Claude Code reply split over several lines is one row, by `message.id`);
 * sessions, projects, agents and days are read through the node's row. `prices`: the price table as data,
 * the shipped defaults (price-defaults.ts, with the date they were taken) until the user edits them.
 * `agent_plans`: the agents the user runs on a subscription plan. A store from before fills `node_usage` from
 * the raw lines it keeps, in the background (usage-backfill.ts): this migration only records where that work
 * ends, so it is O(1) whatever the store's size. Appends add their own replies as they are stored.
 */
import { DEFAULT_PRICES } from '../price-defaults';
import { START_USAGE_BACKFILL_SQL } from '../usage-backfill';
import { insertPrice, preparePriceWrites } from '../price-table';
import type { Migration } from './index';

export const migration023TokenUsage: Migration = {
  version: 23,
  name: 'token-usage',
  up(db) {
    db.exec(`
      CREATE TABLE node_usage (
        node_seq INTEGER PRIMARY KEY,
        -- 'msg:<message.id>' for a Claude Code reply; NULL: the node is its own reply (Codex, no id)
        reply_key TEXT UNIQUE,
        model TEXT,
        input INTEGER NOT NULL,
        output INTEGER NOT NULL,
        cache_read INTEGER NOT NULL,
        cache_write INTEGER NOT NULL,
        -- the agent's own cost of the reply (old Claude Code costUSD), dollars
        reported_usd REAL
      );
      CREATE TRIGGER node_usage_node_removed AFTER DELETE ON nodes BEGIN
        DELETE FROM node_usage WHERE node_seq = OLD.seq;
      END;

      CREATE TABLE prices (
        pattern TEXT PRIMARY KEY,
        input REAL NOT NULL,
        output REAL NOT NULL,
        cache_read REAL NOT NULL,
        cache_write REAL NOT NULL,
        effective_date TEXT NOT NULL,
        origin TEXT NOT NULL
      );

      CREATE TABLE agent_plans (
        agent TEXT PRIMARY KEY,
        subscription INTEGER NOT NULL
      );
    `);
    const writes = preparePriceWrites(db);
    for (const price of DEFAULT_PRICES) insertPrice(writes, price);
    db.exec(START_USAGE_BACKFILL_SQL);
  },
};
