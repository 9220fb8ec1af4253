/**
 * Resumable transcripts of every corpus session, forked at several points each (the last step, a tool call,
 * a tool result, a step after a compaction, a few spread along the main line), must satisfy FORMATS.md §1.10's
 * structure rules (transcript-rules.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { planResumableTranscript } from '../../../electron/forks/resumable-plan';
import { renderResumableTranscript } from '../../../electron/forks/resumable-transcript';
import { storeTranscriptSource } from '../../../electron/forks/transcript-source';
import { createArborService } from '../../../electron/service/arbor-service';
import { STORE_FILE } from '../../../electron/service/service-core';
import type { NodeSummary } from '../../../shared/model';
import { checkResumableCopy } from './transcript-rules';

const corpus = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const present = existsSync(corpus);
if (!present) console.warn(`resumable-corpus: skipped, ${corpus} is absent (the public corpus lives beside the repo)`);

const NEW_SESSION = '00000000-0000-4000-8000-00000000f0c5';

/** Fork points worth checking in a session: kinds that stress the cut, plus a spread along the main line. */
function forkPoints(nodes: readonly NodeSummary[]): Map<string, string> {
  const main = nodes.filter((node) => !node.sidechain);
  const points = new Map<string, string>();
  const add = (node: NodeSummary | undefined, why: string): void => {
    if (node !== undefined && !points.has(node.id)) points.set(node.id, why);
  };
  add(main.at(-1), 'last step');
  add(main.find((node) => node.kind === 'tool_call'), 'tool call');
  add(main.filter((node) => node.kind === 'tool_call').at(-1), 'last tool call');
  add(main.find((node) => node.kind === 'tool_result'), 'tool result');
  add(main.find((node) => node.toolCalls.length > 1), 'parallel tool calls');
  const byId = new Map(main.map((node) => [node.id, node]));
  const afterCompaction = main.filter((node) => {
    for (let at: NodeSummary | undefined = byId.get(node.parentId ?? ''); at !== undefined; at = byId.get(at.parentId ?? '')) {
      if (at.kind === 'compaction') return true;
    }
    return false;
  });
  add(afterCompaction.find((node) => node.kind === 'tool_call'), 'tool call after a compaction');
  add(afterCompaction.at(Math.floor(afterCompaction.length / 2)), 'inside a compacted session');
  add(main.find((node) => node.kind === 'compaction'), 'compaction');
  for (let i = 1; i <= 4; i++) add(main[Math.floor((main.length * i) / 5)], 'spread');
  return points;
}

describe.skipIf(!present)('resumable transcripts of the Claude Code corpus', () => {
  let root: string;
  let store: SessionStore;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'arbor-resumable-corpus-'));
    const dataDir = join(root, 'data');
    const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
    await service.api['import.run']({ paths: [corpus] });
    await service.close();
    store = openSessionStore(join(dataDir, STORE_FILE));
  }, 120_000);
  afterAll(() => {
    store?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('cuts every session at a turn boundary, pairs every call with its result and keeps lines byte-exact', async () => {
    const { sessions } = store.listSessions({ limit: 100_000 });
    const failures: string[] = [];
    const covered = new Map<string, number>();
    let copies = 0;
    const notResumable = new Map<string, number>();
    const dropped = new Map<string, number>();
    const count = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
    for (const session of sessions) {
      const nodes = store.getSessionNodes(session.id);
      const source = storeTranscriptSource(store, session.id);
      for (const [target, why] of forkPoints(nodes)) {
        const outcome = await planResumableTranscript(source, target);
        if (!outcome.resumable) {
          count(notResumable, outcome.reason);
          continue;
        }
        const { plan } = outcome;
        for (const line of plan.dropped) count(dropped, line.reason);
        const text = renderResumableTranscript(plan, { sessionId: NEW_SESSION, fromDir: session.project, toDir: '/tmp/arbor-fork' });
        const problems = checkResumableCopy(text, {
          sessionId: NEW_SESSION,
          target,
          targetKept: plan.targetKept,
          sourceLine: (uuid) => store.getNode(uuid)!.raw.toString('utf8'),
          ...(session.project ? { move: { from: session.project, to: '/tmp/arbor-fork' } } : {}),
        });
        for (const problem of problems.slice(0, 3)) failures.push(`${session.id} @ ${target} (${why}): ${problem}`);
        covered.set(why, (covered.get(why) ?? 0) + 1);
        copies++;
      }
    }
    console.info(
      `resumable-corpus: ${sessions.length} sessions, ${copies} copies checked (${[...covered].map(([why, n]) => `${why} ${n}`).join(', ')}); ` +
        `not resumable: ${JSON.stringify(Object.fromEntries(notResumable))}; lines dropped: ${JSON.stringify(Object.fromEntries(dropped))}`,
    );
    expect(failures).toEqual([]);
    expect(sessions.length).toBeGreaterThan(20);
    expect(covered.get('tool call') ?? 0).toBeGreaterThan(10);
    expect(covered.get('tool result') ?? 0).toBeGreaterThan(10);
    expect(covered.get('inside a compacted session') ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
