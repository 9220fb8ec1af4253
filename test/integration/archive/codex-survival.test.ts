/**
 * The archive's promise for Codex (issue 15): a Codex session whose rollout was deleted still forks — the forked
 * rollout is written from the lines the store kept, as it was from the file: it passes the rollout rules, names its
 * source, and holds the fork point's turn line for line (paths moved into the fork's folder). Before the store was
 * read, the fork answered "not resumable: the rollout could not be read".
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { checkRollout } from '../../../electron/forks/codex/rollout-rules';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';

const SOURCE = '019e0000-0000-7000-8000-00000000c015';
const NOW = new Date('2026-12-01T10:00:00.000Z');

let root: string;
let app: string;
let sourceText: string;
let service: ArborService;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-codex-survival-'));
  app = join(root, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'src', 'dates.ts'), 'return d.getUTCDay();\n');
  const codexHome = join(root, 'codex-home');
  const day = join(codexHome, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  const rolloutPath = join(day, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`);
  await new RolloutBuilder({ id: SOURCE, cwd: app })
    .user('Fix the failing date test')
    .command('npm test -- dates', { exitCode: 0, output: `PASS ${app}/src/dates.test.ts` })
    .agent('The date test passes now.')
    .complete()
    .user('Also rename the helper')
    .agent('Renamed.')
    .complete()
    .write(rolloutPath);
  sourceText = readFileSync(rolloutPath, 'utf8');
  service = await createArborService({ dataDir: join(root, 'data'), host: 'web', version: '0.0.0-test', homeDir: join(root, 'home'), env: { CODEX_HOME: codexHome }, now: () => NOW });
  await service.api['import.run']({ paths: [join(codexHome, 'sessions')] });
  await service.idle();
  rmSync(rolloutPath);
}, 60_000);

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

it('a Codex session whose rollout was deleted forks from the store: the rollout passes the rules and holds the turn as the file had it', async () => {
  const graph = await service.api['sessions.graph']({ sessionId: SOURCE });
  const reply = graph.nodes.find((node) => node.kind === 'assistant' && node.label.includes('The date test passes now'))!;
  expect(reply).toBeDefined();
  const created = await service.api['fork.create']({ nodeId: reply.id, dir: join(root, 'fork') });
  expect(created.resume).toBe(`codex resume ${created.resumeSessionId}`);
  const text = readFileSync(created.transcript!, 'utf8');
  expect(checkRollout(text, { fileName: basename(created.transcript!) })).toEqual({ resumable: true, threadId: created.resumeSessionId, forkedFromId: SOURCE, findings: [] });
  const copy = text.trimEnd().split('\n');
  const source = sourceText.trimEnd().split('\n');
  expect(copy).toHaveLength(source.findIndex((row) => row.includes('task_complete')) + 1);
  for (let index = 1; index < copy.length; index++) {
    const type = (JSON.parse(source[index]!) as { type: string }).type;
    expect(copy[index]).toBe(type === 'event_msg' ? source[index] : source[index]!.replaceAll(app, created.dir));
  }
});
