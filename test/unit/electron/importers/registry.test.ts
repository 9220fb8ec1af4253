import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../../electron/demo/codex-rollout';
import { defaultTranscriptLocations, discoverTranscripts } from '../../../../electron/importers/registry';
import { userLine } from './fixtures/claude-lines';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-registry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rollout = (id: string) => new RolloutBuilder({ id, cwd: '/work/app' }).user('hello').agent('hi');

describe('discoverTranscripts', () => {
  it('gives a Codex rollout named like a Claude subagent to the Codex importer (regression: taken as a subagent)', async () => {
    const path = join(dir, 'agent-a1b2c3.jsonl');
    await rollout('019e0000-0000-7000-8000-00000000000a').write(path);
    const { files, problems } = await discoverTranscripts([dir]);
    expect(problems).toEqual([]);
    expect(files).toMatchObject([{ path, format: 'codex', role: 'main', agentId: null, sessionHint: '019e0000-0000-7000-8000-00000000000a' }]);
  });

  it('sorts a mixed folder by content and names what each unclaimed file looks like', async () => {
    await mkdir(join(dir, 'sessions', '2026', '11', '30'), { recursive: true });
    const codexPlain = join(dir, 'sessions', '2026', '11', '30', 'rollout-2026-11-30T09-00-00-019e0000-0000-7000-8000-00000000000b.jsonl');
    const codexPacked = join(dir, 'sessions', '2026', '11', '30', 'rollout-2026-11-30T10-00-00-019e0000-0000-7000-8000-00000000000c.jsonl.zst');
    await rollout('019e0000-0000-7000-8000-00000000000b').write(codexPlain);
    await rollout('019e0000-0000-7000-8000-00000000000c').write(codexPacked);
    const claude = join(dir, 'claude.jsonl');
    await writeFile(claude, `${userLine('u1', null, 'hello')}\n`);
    const notes = join(dir, 'notes.jsonl');
    await writeFile(notes, '{"level":"info","msg":"started"}\n{"level":"info","msg":"done"}\n');
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const binary = join(dir, 'image.jsonl');
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const text = join(dir, 'readme.jsonl');
    await writeFile(text, 'just some words\nand more\n');

    const { files, problems } = await discoverTranscripts([dir]);
    expect(files.map((file) => [file.path, file.format]).sort()).toEqual(
      [[claude, 'claude-code'], [codexPlain, 'codex'], [codexPacked, 'codex']].sort(),
    );
    const reasons = new Map(problems.map((problem) => [problem.file, problem.reason]));
    expect(reasons.get(notes)).toBe('no importer claims this file: it looks like JSON lines, not a transcript');
    expect(reasons.get(empty)).toBe('an empty file: nothing to import yet (read again when it grows)');
    expect(reasons.get(binary)).toBe('no importer claims this file: it looks like not a transcript (binary data)');
    expect(reasons.get(text)).toBe('no importer claims this file: it looks like not a transcript');
    expect(problems.filter((problem) => problem.file !== empty).every((problem) => problem.notImported === true)).toBe(true);
  });

  it('an empty file or one half-written first line is not a failed import: the corpus import exited 1 over two empty session files', async () => {
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const started = join(dir, 'started.jsonl');
    await writeFile(started, '{"type":"us'); // an agent's first line, flushed in part
    const { files, problems } = await discoverTranscripts([dir]);
    expect(files).toEqual([]);
    expect(problems.map((problem) => [problem.file, problem.reason, problem.notImported]).sort()).toEqual(
      [
        [empty, 'an empty file: nothing to import yet (read again when it grows)', undefined],
        [started, 'no complete line yet: nothing to import yet (read again when it grows)', undefined],
      ].sort(),
    );
  });
});

describe('a transcript with invalid UTF-8 in its first lines', () => {
  it('is claimed by its lines: it was refused whole as "binary data" before its lines were read', async () => {
    const path = join(dir, 'claude.jsonl');
    const bad = Buffer.from(`${userLine('u1', null, 'Bytes: INVALID')}\n`);
    bad[bad.indexOf('INVALID')] = 0xff;
    await writeFile(path, Buffer.concat([bad, Buffer.from(`${userLine('u2', 'u1', 'next')}\n`)]));
    const { files, problems } = await discoverTranscripts([dir]);
    expect(problems).toEqual([]);
    expect(files.map((file) => [file.path, file.format])).toEqual([[path, 'claude-code']]);
  });
});

describe('defaultTranscriptLocations', () => {
  it('has Claude Code and Codex folders, honouring CLAUDE_CONFIG_DIR and CODEX_HOME', () => {
    expect(defaultTranscriptLocations('/home/dev', {})).toEqual([
      '/home/dev/.claude/projects', '/home/dev/.codex/sessions', '/home/dev/.codex/archived_sessions',
    ]);
    expect(defaultTranscriptLocations('/home/dev', { CODEX_HOME: '/data/codex', CLAUDE_CONFIG_DIR: '~/cc' })).toEqual([
      '/home/dev/cc/projects', '/data/codex/sessions', '/data/codex/archived_sessions',
    ]);
  });
});
