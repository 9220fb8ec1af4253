/** What a rollout's head says about its lineage, and how a fork's copies are matched to its source's steps. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forkRollout, resumedRollout, rolloutText, subagentRollout } from '../../../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../../../electron/demo/codex-rollout';
import { headLineage, matchCopies } from '../../../../../electron/importers/codex/lineage';
import { parseRollout } from './parse-helpers';

const SOURCE = '019e3000-0000-7000-8000-00000000000a';
const FORK = '019e3000-0000-7000-8000-00000000000b';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('headLineage', () => {
  it('names the source of a fork, the parent of a subagent, and the thread a resume into a new file continues', () => {
    const source = new RolloutBuilder({ id: SOURCE, cwd: '/w' }).user('hi').take();
    expect(headLineage(forkRollout(source, { id: FORK, cwd: '/w', forkedFromId: SOURCE }, (b) => b))).toMatchObject({ threadId: FORK, forkedFromId: SOURCE, continuesId: null });
    expect(headLineage(subagentRollout({ id: FORK, cwd: '/w', parentThreadId: SOURCE }, (b) => b))).toMatchObject({ parentThreadId: SOURCE, forkedFromId: null });
    expect(headLineage(resumedRollout(source, { id: FORK, cwd: '/w' }, (b) => b))).toMatchObject({ threadId: FORK, continuesId: SOURCE });
    // A fork whose copy repeats the source's session_meta is still a fork, not a continuation.
    expect(headLineage(forkRollout(source, { id: FORK, cwd: '/w', forkedFromId: SOURCE }, (b) => b, { copySourceMeta: true }))).toMatchObject({ forkedFromId: SOURCE, continuesId: null });
  });

  it('reads the ids of a session_meta line cut at the head size', () => {
    const cut = `{"timestamp":"2026-11-30T09:00:00.000Z","type":"session_meta","payload":{"id":"${FORK}","forked_from_id":"${SOURCE}","base_instructions":{"text":"aaaa`;
    expect(headLineage([cut])).toMatchObject({ threadId: FORK, forkedFromId: SOURCE });
  });
});

describe('matchCopies', () => {
  it('matches the copied steps in order, timestamps aside, and stops at the fork\'s own first step even when it repeats the source\'s next prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbor-codex-lineage-'));
    dirs.push(dir);
    const first = new RolloutBuilder({ id: SOURCE, cwd: '/w' }).user('one').agent('first reply');
    const copied = first.take().length - 1;
    const source = first.user('two').agent('second reply').take();
    const fork = forkRollout(source, { id: FORK, cwd: '/w', forkedFromId: SOURCE, start: new Date('2026-12-01T00:00:00.000Z') }, (b) => b.user('two').agent('another reply'), { copiedLines: copied });
    writeFileSync(join(dir, 'source.jsonl'), rolloutText(source));
    writeFileSync(join(dir, 'fork.jsonl'), rolloutText(fork));
    const sourceNodes = (await parseRollout(join(dir, 'source.jsonl'), 0, SOURCE)).nodes;
    const forkNodes = (await parseRollout(join(dir, 'fork.jsonl'), 0, FORK)).nodes;
    const copies = matchCopies(forkNodes, sourceNodes);
    // The source's session_meta is not repeated: its prompt and reply are the copies. The fork's 'two' is its own
    // although the source asked the same next: it was written after the copies.
    expect([...copies.values()].map((node) => node.label)).toEqual(sourceNodes.slice(1, 1 + copies.size).map((node) => node.label));
    expect([...copies.values()].at(-1)?.label).toContain('first reply');
    expect([...copies.keys()].every((id) => id.startsWith(`${FORK}:`))).toBe(true);
  });
});
