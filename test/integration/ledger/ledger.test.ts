/**
 * The side-effect ledger over imported sessions (a real service on a temp data folder): the replayed commit
 * (commit → no result → resume → same commit → flagged), the push without outcome, a GET read twice (not a
 * replay), a publish repeated on the kept branch after a rewind (a retry), the branch through a node, `since`,
 * and a Codex rollout whose exec and MCP calls go through the same classifier.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../shared/model';
import type { LedgerEntry } from '../../../shared/side-effect-ledger';
import { openHarness, type Harness } from '../service/service-harness';
import { COMMIT, LEDGER_CODEX_ID, LEDGER_SESSION_ID, PUBLISH, PUSH, READ_URL, writeLedgerRollout, writeLedgerSession } from './ledger-session';

let h: Harness;
let nodes: readonly NodeSummary[];
let written: ReturnType<typeof writeLedgerSession>;
beforeAll(async () => {
  h = await openHarness();
  written = writeLedgerSession(join(h.root, 'home'));
  await writeLedgerRollout(join(h.root, 'codex'));
  await h.service.api['import.run']({ paths: [written.projectsDir, join(h.root, 'codex')] });
  nodes = (await h.service.api['sessions.graph']({ sessionId: LEDGER_SESSION_ID })).nodes;
});
afterAll(async () => {
  await h.dispose();
});

const bySummary = (entries: readonly LedgerEntry[], summary: string) => entries.filter((entry) => entry.summary === summary);

describe('the side-effect ledger', () => {
  it('lists every step that reached outside, with its outcome, and flags the replayed commit', async () => {
    const ledger = await h.service.api['effects.ledger']({ target: LEDGER_SESSION_ID });
    expect(ledger.through).toBeNull();
    const commits = bySummary(ledger.entries, COMMIT);
    expect(commits.map((entry) => [entry.outcome, entry.effects, entry.kinds])).toEqual([
      ['missing', ['git commit'], []],
      ['ok', ['git commit'], []],
    ]);
    expect(commits[0]!.replayOf).toBeNull();
    expect(commits[1]!.replayOf).toMatchObject({ nodeId: commits[0]!.nodeId, toolUseId: commits[0]!.toolUseId, reason: 'missing-outcome', effect: 'git commit', outcome: 'missing' });

    const [push] = bySummary(ledger.entries, PUSH);
    expect(push).toMatchObject({ outcome: 'missing', kinds: ['git-push'], effects: ['git push'], replayOf: null });

    // A GET twice is a read twice: listed (it reached the network), never a replay.
    const reads = bySummary(ledger.entries, READ_URL);
    expect(reads.map((entry) => [entry.kinds, entry.effects, entry.replayOf])).toEqual([
      [['network'], [], null],
      [['network'], [], null],
    ]);
    // Local steps are not in the ledger.
    expect(ledger.entries.some((entry) => entry.summary.startsWith('git status') || entry.tool === 'Edit' || entry.tool === 'Read')).toBe(false);
    expect(ledger.unrecorded).toBe(2);
  });

  it('flags a publish repeated on the branch kept after a rewind as a retry of the abandoned one', async () => {
    const ledger = await h.service.api['effects.ledger']({ target: LEDGER_SESSION_ID });
    const publishes = bySummary(ledger.entries, PUBLISH);
    expect(publishes).toHaveLength(2);
    expect(publishes[0]!.replayOf).toBeNull();
    expect(publishes[1]!.replayOf).toMatchObject({ nodeId: publishes[0]!.nodeId, reason: 'retry', effect: 'npm publish', outcome: 'ok' });
    expect(ledger.replays).toBe(2);
  });

  it('the branch through a node holds that branch only, steps after the node marked', async () => {
    const kept = nodes.find((node) => node.kind === 'user' && node.label.includes(written.keptPrompt))!;
    const ledger = await h.service.api['effects.ledger']({ target: kept.id });
    expect(ledger.through).toBe(kept.id);
    const publishes = bySummary(ledger.entries, PUBLISH);
    // The abandoned branch's publish is not on this branch: this one is a retry only in the session's ledger.
    expect(publishes.map((entry) => [entry.afterThrough, entry.replayOf])).toEqual([[true, null]]);
    expect(bySummary(ledger.entries, COMMIT).map((entry) => [entry.afterThrough, entry.replayOf?.reason ?? null])).toEqual([
      [false, null],
      [false, 'missing-outcome'],
    ]);
  });

  it('`since` lists only the steps after that node, replays still found against the earlier ones', async () => {
    const resumed = nodes.find((node) => node.kind === 'user' && node.label.includes('Carry on'))!;
    const ledger = await h.service.api['effects.ledger']({ target: LEDGER_SESSION_ID, since: resumed.id });
    const commits = bySummary(ledger.entries, COMMIT);
    expect(commits.map((entry) => entry.replayOf?.reason)).toEqual(['missing-outcome']);
    expect(bySummary(ledger.entries, READ_URL)).toHaveLength(1);
  });

  it('reads a Codex rollout through the same rules: exec commands and MCP calls', async () => {
    const ledger = await h.service.api['effects.ledger']({ target: LEDGER_CODEX_ID });
    const commits = bySummary(ledger.entries, COMMIT);
    expect(commits.map((entry) => [entry.tool, entry.outcome, entry.replayOf?.reason ?? null])).toEqual([
      ['exec_command', 'missing', null],
      ['exec_command', 'ok', 'missing-outcome'],
    ]);
    expect(ledger.entries.find((entry) => entry.tool === 'mcp__github__create_issue')).toMatchObject({ kinds: ['mcp'], effects: ['github/create_issue'], outcome: 'ok' });
    expect(bySummary(ledger.entries, PUSH).map((entry) => entry.outcome)).toEqual(['missing']);
    expect(ledger.entries.some((entry) => entry.summary.startsWith('git log'))).toBe(false);
  });

  it('says NOT_FOUND for a target that is neither a session nor a node', async () => {
    await expect(h.service.api['effects.ledger']({ target: 'no-such-thing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the ledger in exports', () => {
  it('a JSON export of the branch through the replayed commit carries its sideEffects, the replay linked', async () => {
    const resumed = nodes.find((node) => node.kind === 'user' && node.label.includes('Carry on'))!;
    const out = join(h.root, 'ledger.json');
    await h.service.api['export.write']({ target: resumed.id, format: 'json', out });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as { sideEffects: LedgerEntry[] };
    const ledger = await h.service.api['effects.ledger']({ target: resumed.id });
    expect(exported.sideEffects).toEqual(ledger.entries);
    expect(exported.sideEffects.filter((entry) => entry.replayOf !== null).map((entry) => entry.replayOf!.effect)).toEqual(['git commit']);
  });

  it('a Markdown export ends with the Side effects section, the replay under its request', async () => {
    const out = join(h.root, 'ledger.md');
    await h.service.api['export.write']({ target: LEDGER_SESSION_ID, format: 'md', out });
    const text = readFileSync(out, 'utf8');
    const section = text.slice(text.indexOf('\n## Side effects\n'));
    expect(section).toContain('- **git commit** · requested, outcome not recorded · `git add -A && git commit -m "fix: parser keeps quoted commas"`');
    expect(section).toMatch(/\n {2}- ⚠ Possible double effect: git commit requested again; the earlier request has no recorded outcome and may have run\. Earlier: `[0-9a-f]{8}`/);
  });
});
