/**
 * `fork.create` on a Codex session, through the real service, with CODEX_HOME in a temp folder: the fork
 * writes a new rollout under $CODEX_HOME/sessions/YYYY/MM/DD/ that passes the rollout rules, names its source
 * (forked_from_id), holds the fork point's whole turn with the paths moved into the fork's folder, answers
 * with `codex resume <id>`, and imports back as a Codex session linked to its source. A Claude Code fork in the
 * same service still writes a Claude transcript.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolloutBuilder, sampleRollout } from '../../../electron/demo/codex-rollout';
import { checkRollout } from '../../../electron/forks/codex/rollout-rules';
import { importerFor } from '../../../electron/importers/registry';
import { parseRollout } from '../../unit/electron/importers/codex/parse-helpers';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { SessionGraph } from '../../../shared/model';

const SOURCE = '019e0000-0000-7000-8000-00000000c000';
const NOW = new Date('2026-12-01T10:00:00.000Z');

let root: string;
let app: string;
let codexHome: string;
let service: ArborService;
let graph: SessionGraph;
let sourceText: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-codex-fork-'));
  app = join(root, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'src', 'dates.ts'), 'return d.getUTCDay();\n');
  codexHome = join(root, 'codex-home');
  const rollout = new RolloutBuilder({ id: SOURCE, cwd: app })
    .user('Fix the failing date test')
    .command('npm test -- dates', { exitCode: 0, output: `PASS ${app}/src/dates.test.ts` })
    .agent('The date test passes now.')
    .complete()
    .user('Also rename the helper')
    .agent('Renamed.')
    .complete();
  const day = join(codexHome, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  const sourcePath = join(day, `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`);
  await rollout.write(sourcePath);
  sourceText = readFileSync(sourcePath, 'utf8');
  service = await createArborService({ dataDir: join(root, 'data'), host: 'web', version: '0.0.0-test', homeDir: join(root, 'home'), env: { CODEX_HOME: codexHome }, now: () => NOW });
  await service.api['import.run']({ paths: [join(codexHome, 'sessions')] });
  graph = await service.api['sessions.graph']({ sessionId: SOURCE });
});

afterAll(async () => {
  await service.close();
  rmSync(root, { recursive: true, force: true });
});

const nodeWithText = (text: string) => graph.nodes.find((node) => node.label.includes(text) || (node.kind === 'assistant' && node.label.includes(text)))!;

describe('forking a Codex session', () => {
  it('the registry says Codex can write a resumable fork', () => {
    expect(importerFor('codex')?.writesResumableFork).toBe(true);
  });

  let created: Awaited<ReturnType<ArborService['api']['fork.create']>>;

  beforeAll(async () => {
    const reply = nodeWithText('The date test passes now');
    expect(reply).toBeDefined();
    created = await service.api['fork.create']({ nodeId: reply.id, dir: join(root, 'fork') });
  });

  it('answers with `codex resume <new id>` and the rollout it wrote under CODEX_HOME', () => {
    expect(created.resumeSessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.resume).toBe(`codex resume ${created.resumeSessionId}`);
    const two = (n: number) => String(n).padStart(2, '0');
    const day = join(codexHome, 'sessions', String(NOW.getFullYear()), two(NOW.getMonth() + 1), two(NOW.getDate()));
    expect(dirname(created.transcript!)).toBe(day);
    expect(basename(created.transcript!)).toMatch(new RegExp(`^rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${created.resumeSessionId}\\.jsonl$`));
    // `npm test` may write (the shell classifier), so the files after it are the source's as they are now.
    expect(created.warnings).toEqual([expect.stringMatching(/^A step before the node may have changed files/)]);
  });

  it('the written rollout passes the rules and names its source', () => {
    const text = readFileSync(created.transcript!, 'utf8');
    expect(checkRollout(text, { fileName: basename(created.transcript!) })).toEqual({ resumable: true, threadId: created.resumeSessionId, forkedFromId: SOURCE, findings: [] });
  });

  it('holds the fork point’s whole turn, cut before the next, with paths moved into the fork folder', () => {
    const copy = readFileSync(created.transcript!, 'utf8').trimEnd().split('\n');
    const source = sourceText.trimEnd().split('\n');
    expect(copy.at(-1)).toContain('task_complete');
    expect(copy.some((row) => row.includes('Also rename'))).toBe(false);
    expect(copy).toHaveLength(source.findIndex((row) => row.includes('task_complete')) + 1);
    const meta = JSON.parse(copy[0]!).payload as Record<string, unknown>;
    expect(meta.cwd).toBe(created.dir);
    expect(JSON.parse(copy.find((row) => row.includes('"turn_context"'))!).payload.cwd).toBe(created.dir);
    for (let index = 1; index < copy.length; index++) {
      const type = (JSON.parse(source[index]!) as { type: string }).type;
      expect(copy[index]).toBe(type === 'event_msg' ? source[index] : source[index]!.replaceAll(app, created.dir));
    }
  });

  it('the fork folder holds the workspace and the source is untouched', () => {
    expect(readFileSync(join(created.dir, 'src', 'dates.ts'), 'utf8')).toBe('return d.getUTCDay();\n');
    expect(readFileSync(join(codexHome, 'sessions', '2026', '11', '30', `rollout-2026-11-30T09-00-00-${SOURCE}.jsonl`), 'utf8')).toBe(sourceText);
  });

  it('forks.list says `codex resume` for it', async () => {
    const { forks } = await service.api['forks.list']({});
    expect(forks.find((fork) => fork.fork === created.fork)?.resume).toBe(`codex resume ${created.resumeSessionId}`);
  });

  it('the new rollout parses back as a fork of its source (its copied turn is the source\'s own steps, stored once), and imports as a Codex session', async () => {
    const { nodes, records } = await parseRollout(created.transcript!);
    const sourceIds = new Set(graph.nodes.map((node) => node.id));
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((node) => node.sessionSourceId === SOURCE && sourceIds.has(node.sourceId))).toBe(true);
    expect(records.some((record) => record.type === 'session_meta' || record.raw.toString('utf8').includes(created.resumeSessionId!))).toBe(true);
    // Copies only (nothing resumed yet): they are the source's steps, so the source stays one session of its own size.
    await service.api['import.run']({ paths: [join(codexHome, 'sessions')] });
    const before = (await service.api['sessions.list']({})).sessions;
    expect(before.map((session) => [session.id, session.nodeCount])).toEqual([[SOURCE, graph.nodes.length]]);
    // Once `codex resume` adds a step, the fork is a Codex session of its own in its folder.
    appendFileSync(created.transcript!, `${JSON.stringify({ timestamp: '2026-12-01T10:05:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on in the fork' }] } })}\n`);
    await service.api['import.run']({ paths: [join(codexHome, 'sessions')] });
    const { sessions } = await service.api['sessions.list']({});
    const fork = sessions.find((session) => session.id === created.resumeSessionId);
    expect(fork?.source).toBe('codex');
    // In the fork's folder, where its own steps run (its copied steps ran in the source's).
    expect(fork?.project).toBe(created.dir);
    expect((await service.api['sessions.list']({})).sessions.find((session) => session.id === SOURCE)?.nodeCount).toBe(graph.nodes.length);
  });

  it('a second fork never overwrites the first: a new id, a new file', async () => {
    const again = await service.api['fork.create']({ nodeId: nodeWithText('The date test passes now').id, dir: join(root, 'fork-2') });
    expect(again.resumeSessionId).not.toBe(created.resumeSessionId);
    expect(again.transcript).not.toBe(created.transcript);
    expect(existsSync(created.transcript!)).toBe(true);
    expect(readdirSync(dirname(again.transcript!)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('removing the fork removes its rollout', async () => {
    const { removed } = await service.api['forks.remove']({ forkIds: [created.fork] });
    expect(removed).toEqual([created.fork]);
    expect(existsSync(created.transcript!)).toBe(false);
  });
});

describe('forking a compressed Codex rollout at its interrupted turn', () => {
  const ID = '019e0000-0000-7000-8000-00000000c0a1';
  let home: string;
  let codex: ArborService;
  let rolloutFile: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'arbor-codex-fork-zst-'));
    mkdirSync(join(home, 'app'));
    const day = join(home, 'codex', 'sessions', '2026', '11', '30');
    mkdirSync(day, { recursive: true });
    rolloutFile = join(day, `rollout-2026-11-30T09-00-00-${ID}.jsonl.zst`);
    await sampleRollout({ id: ID, cwd: join(home, 'app') }).write(rolloutFile);
    codex = await createArborService({ dataDir: join(home, 'data'), host: 'web', version: '0.0.0-test', homeDir: join(home, 'home'), env: { CODEX_HOME: join(home, 'codex') }, now: () => NOW });
    await codex.api['import.run']({ paths: [join(home, 'codex', 'sessions')] });
  });
  afterAll(async () => {
    await codex.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('writes a plain rollout cut after turn_aborted, and says what Codex will repair (the call without output)', async () => {
    const nodes = (await codex.api['sessions.graph']({ sessionId: ID })).nodes;
    const prompt = nodes.find((node) => node.kind === 'user' && node.label.includes('Also rename'))!;
    const created = await codex.api['fork.create']({ nodeId: prompt.id, dir: join(home, 'fork') });
    expect(created.transcript!.endsWith('.jsonl')).toBe(true);
    const text = readFileSync(created.transcript!, 'utf8');
    expect(text.trimEnd().split('\n').at(-1)).toContain('turn_aborted');
    expect(text).not.toContain('"compacted"');
    const verdict = checkRollout(text, { fileName: basename(created.transcript!) });
    expect(verdict.resumable).toBe(true);
    expect(verdict.findings.map((finding) => finding.rule)).toEqual(['call-without-output']);
    // The Codex rules' warning, beside the workspace's: the call with no output may have written files.
    expect(created.warnings).toContainEqual(expect.stringMatching(/^The forked rollout, line \d+: call_\d+ has no output: Codex resumes it as aborted$/));
    expect(created.warnings).toContainEqual(expect.stringMatching(/^A step before the node may have changed files/));
  });

  it('writes no rollout when the source changed since it was imported (the node’s line is gone)', async () => {
    const nodes = (await codex.api['sessions.graph']({ sessionId: ID })).nodes;
    const reply = nodes.find((node) => node.kind === 'assistant' && node.label.includes('Here is the diff'))!;
    await new RolloutBuilder({ id: ID, cwd: join(home, 'app') }).user('Something else').agent('Other.').complete().write(rolloutFile);
    const created = await codex.api['fork.create']({ nodeId: reply.id, dir: join(home, 'fork-changed') });
    expect(created.resume).toBeNull();
    expect(created.transcript).toBeNull();
    expect(created.warnings).toContainEqual(expect.stringMatching(/^No resumable transcript: the node's line is no longer at .*: the rollout changed since it was imported$/));
  });
});
