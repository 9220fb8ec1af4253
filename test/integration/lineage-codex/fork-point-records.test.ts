/**
 * The inspector of a step a Codex fork copied lists each record beside it once (regression: the echo records
 * were listed twice, once from the source's file and once from the fork's copy of it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkRollout, rolloutText } from '../../../electron/demo/codex-lineage';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { openHarness, type Harness } from '../service/service-harness';

const SOURCE = '019e1000-0000-7000-8000-00000000010a';
const FORK = '019e1000-0000-7000-8000-00000000010b';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('a Codex fork point in the inspector', () => {
  it('lists the fork-point step\'s echo records once, not once per file', async () => {
    const first = new RolloutBuilder({ id: SOURCE, cwd: '/home/dev/app' }).user('Fix the failing date test').agent('Fixed.').complete();
    const copiedLines = first.take().length - 1;
    const source = first.user('Now rename the helper').agent('Renamed.').complete().take();
    const fork = forkRollout(source, { id: FORK, cwd: '/home/dev/app', forkedFromId: SOURCE, start: new Date('2026-11-30T10:00:00.000Z') }, (b) => b.user('Instead, add a leap-year test').agent('Added.').complete(), { copiedLines });
    const folder = join(h.root, 'codex', 'sessions', '2026', '11', '30');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`), rolloutText(source));
    writeFileSync(join(folder, `rollout-2026-11-30T10-00-00-${FORK}.jsonl`), rolloutText(fork));
    expect((await h.service.api['import.run']({ paths: [join(h.root, 'codex')] })).problems).toEqual([]);
    const { nodes } = await h.service.api['sessions.graph']({ sessionId: SOURCE });
    for (const label of ['Fix the failing date test', 'Fixed.']) {
      const node = nodes.find((candidate) => candidate.label === label)!;
      const detail = await h.service.api['nodes.get']({ nodeId: node.id });
      const echoes = detail.records.filter((record) => record.type.startsWith('echo:'));
      expect([label, echoes.length]).toEqual([label, 1]);
      // The one listed is the source's own line.
      expect(echoes[0]!.file).toContain(SOURCE);
    }
  });
});
