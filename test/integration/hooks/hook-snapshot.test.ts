/**
 * `arbor snapshot --hook` as Claude Code runs it (PostToolUse JSON on stdin, FORMATS.md §1.9): an exact
 * capture of the cwd linked to tool_use_id, silent and exit 0 whatever happens; once the transcript holding
 * the call is imported, the call and its result answer with the captured state.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../electron/cli/command';
import { runCli } from '../../../electron/cli/main';
import { HOOK_LOG } from '../../../electron/hooks/hook-log';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import { prompt, toolCall, toolResult, writeTranscript } from '../service/claude-lines';

const SESSION = '7b1f0c2e-1111-4aaa-8bbb-000000000001';
const CALL = 'toolu_01HookSnapshotWrite';
const BASH_CALL = 'toolu_01HookSnapshotBash';

let root: string;
let home: string;
let dataDir: string;
let workspace: string;
let transcript: string;

async function runHook(stdin: string, where: { dataDir: string; homeDir: string; cwd: string }): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  let stdout = '';
  let stderr = '';
  const input = new PassThrough();
  input.end(stdin);
  const io: CliIO = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), stdin: input, cwd: where.cwd, env: {}, interactive: false };
  const started = performance.now();
  const code = await runCli(['--data-dir', where.dataDir, 'snapshot', '--hook'], io, { createService: createArborService, homeDir: where.homeDir, platform: 'linux' });
  return { code, stdout, stderr, ms: performance.now() - started };
}

function payload(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: workspace,
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(workspace, 'src/app.ts'), content: 'export const app = 2;\n' },
    tool_response: { type: 'update', filePath: join(workspace, 'src/app.ts'), content: 'export const app = 2;\n', structuredPatch: [] },
    tool_use_id: CALL,
    ...fields,
  });
}

const hookLog = (): string => (existsSync(join(dataDir, HOOK_LOG)) ? readFileSync(join(dataDir, HOOK_LOG), 'utf8') : '');

async function withService<T>(use: (service: ArborService) => Promise<T>): Promise<T> {
  const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {} });
  try {
    return await use(service);
  } finally {
    await service.close();
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-hook-snapshot-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, '.gitignore'), 'build/\n');
  writeFileSync(join(workspace, 'README.md'), '# app\n');
  mkdirSync(join(workspace, 'build'));
  writeFileSync(join(workspace, 'build/out.js'), 'ignored\n');
  transcript = join(home, '.claude/projects/-workspace', `${SESSION}.jsonl`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbor snapshot --hook', () => {
  it('captures the cwd after a Write, linked to its tool_use_id, printing nothing', async () => {
    writeFileSync(join(workspace, 'src/app.ts'), 'export const app = 2;\n');
    const run = await runHook(payload(), { dataDir, homeDir: home, cwd: root });
    console.log(`snapshot --hook (in-process, first run: opens the store): ${run.ms.toFixed(0)} ms`);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(hookLog()).toBe('');

    const again = await runHook(payload({ tool_use_id: `${CALL}-again` }), { dataDir, homeDir: home, cwd: root });
    console.log(`snapshot --hook (in-process, unchanged folder): ${again.ms.toFixed(0)} ms`);
    expect(again.code).toBe(0);
    expect(again.ms).toBeLessThan(15_000);

    await withService(async (service) => {
      const graph = await service.api['sessions.graph']({ sessionId: SESSION });
      const hooks = graph.workspaceNodes?.filter((node) => node.kind === 'hook-snapshot') ?? [];
      expect(hooks).toHaveLength(2);
      expect(hooks[0]!.dir).toBe(workspace);
      const files = await service.api['nodes.files']({ nodeId: hooks[0]!.nodeId });
      expect(files.known).toBe('exact');
      expect(files.files.map((file) => file.path).sort()).toEqual([join(workspace, '.gitignore'), join(workspace, 'README.md'), join(workspace, 'src/app.ts')]);
      const detail = await service.api['nodes.get']({ nodeId: hooks[0]!.nodeId });
      expect(detail.blocks[0]).toMatchObject({ type: 'text', text: expect.stringContaining(CALL) as unknown });
    });
  });

  it('exits 0 on garbage stdin, on a payload without cwd and on a cwd that does not exist, and logs each', async () => {
    const garbage = await runHook('this is not json{', { dataDir, homeDir: home, cwd: root });
    expect(garbage).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const noCwd = await runHook(payload({ cwd: undefined }), { dataDir, homeDir: home, cwd: root });
    expect(noCwd).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const missing = await runHook(payload({ cwd: join(root, 'gone'), tool_use_id: 'toolu_gone' }), { dataDir, homeDir: home, cwd: root });
    expect(missing).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const lines = hookLog().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.*Z snapshot --hook: stdin is not JSON/);
    expect(lines[1]).toMatch(/no absolute cwd/);
    expect(lines[2]).toContain('toolu_gone');
    expect(lines[2]).toContain(join(root, 'gone'));
  });

  it('skips read-only shell commands (nothing can have changed)', async () => {
    const run = await runHook(payload({ tool_name: 'Bash', tool_input: { command: 'ls -la && git status' }, tool_use_id: 'toolu_ls' }), { dataDir, homeDir: home, cwd: root });
    expect(run.code).toBe(0);
    await withService(async (service) => {
      const graph = await service.api['sessions.graph']({ sessionId: SESSION });
      expect(graph.workspaceNodes?.filter((node) => node.kind === 'hook-snapshot')).toHaveLength(2);
    });
  });

  it('makes the tool call and its result exact once the transcript is imported, and hangs the snapshot below the result', async () => {
    // A Bash call that changed a file the transcript cannot replay: only the hook knows its outcome.
    writeFileSync(join(workspace, 'src/generated.ts'), 'export const generated = true;\n');
    const bash = await runHook(payload({ tool_name: 'Bash', tool_input: { command: 'npm run generate' }, tool_use_id: BASH_CALL }), { dataDir, homeDir: home, cwd: root });
    expect(bash.code).toBe(0);
    writeTranscript(transcript, [
      { ...prompt('u1', null, 'Bump the app and generate', SESSION, 0), cwd: workspace },
      { ...toolCall('a1', 'u1', CALL, 'Write', { file_path: join(workspace, 'src/app.ts'), content: 'export const app = 2;\n' }, SESSION, 1), cwd: workspace },
      { ...toolResult('r1', 'a1', CALL, 'File written', { session: SESSION, at: 2 }), cwd: workspace },
      { ...toolCall('a2', 'r1', BASH_CALL, 'Bash', { command: 'npm run generate' }, SESSION, 3), cwd: workspace },
      { ...toolResult('r2', 'a2', BASH_CALL, 'generated', { session: SESSION, at: 4 }), cwd: workspace },
    ]);
    await withService(async (service) => {
      await service.api['import.run']({ paths: [transcript] });
      const graph = await service.api['sessions.graph']({ sessionId: SESSION });
      const bySource = (uuid: string): string => graph.nodes.find((node) => node.sourceId === uuid)!.id;
      for (const uuid of ['a2', 'r2']) {
        const files = await service.api['nodes.files']({ nodeId: bySource(uuid) });
        expect(files.known, uuid).toBe('exact');
        expect(files.node.id).toBe(bySource(uuid));
        expect(files.files.map((file) => file.path)).toContain(join(workspace, 'src/generated.ts'));
        const generated = await service.api['nodes.file']({ nodeId: bySource(uuid), path: join(workspace, 'src/generated.ts') });
        expect(generated).toMatchObject({ exists: true, known: 'exact', content: 'export const generated = true;\n' });
      }
      const written = await service.api['nodes.file']({ nodeId: bySource('r1'), path: join(workspace, 'src/app.ts') });
      expect(written).toMatchObject({ exists: true, known: 'exact', content: 'export const app = 2;\n' });
      // Without a hook snapshot, the prompt is still answered by the reconstruction.
      expect((await service.api['nodes.files']({ nodeId: bySource('u1') })).known).not.toBe('exact');

      const states = await service.api['sessions.states']({ sessionId: SESSION });
      expect(states.known[bySource('r2')]).toBe('exact');
      const hookNodes = graph.nodes.filter((node) => graph.workspaceNodes?.some((info) => info.nodeId === node.id && info.kind === 'hook-snapshot'));
      const parents = hookNodes.map((node) => node.parentId);
      expect(parents).toContain(bySource('r1'));
      expect(parents).toContain(bySource('r2'));
    });
  });
});
