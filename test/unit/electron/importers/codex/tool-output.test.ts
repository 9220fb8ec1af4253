/** A Codex command's outcome from its output: an exit code, a failure text, or a command still running. */
import { describe, expect, it } from 'vitest';
import { RolloutBuilder } from '../../../../../electron/demo/codex-rollout';
import { readCodexNodeContent } from '../../../../../electron/importers/codex/node-content';
import { readToolOutput } from '../../../../../electron/importers/codex/tool-output';

describe('readToolOutput', () => {
  it('a command still running after its wait has no exit code, is no failure, and says it runs', () => {
    const output = readToolOutput('Chunk ID: c1\nWall time: 10.0 seconds\nProcess running with session ID 41\nOriginal token count: 0\nOutput:\n');
    expect(output).toEqual({ text: '', isError: false, exitCode: null, running: true });
  });

  it('a command that exited is not running, even when its own output prints the running line', () => {
    const output = readToolOutput('Chunk ID: c2\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 8\nOutput:\nProcess running with session ID 3\n');
    expect([output.running, output.exitCode, output.text]).toEqual([false, 0, 'Process running with session ID 3\n']);
  });

  it('other outputs are not running', () => {
    expect(readToolOutput('Process running with session ID 5').running).toBe(false);
    expect(readToolOutput('apply_patch verification failed: no such line').running).toBe(false);
  });
});

describe('a running exec_command read back for the conversation and the inspector', () => {
  it('its result block says running, with no exit code', () => {
    const lines = new RolloutBuilder({ id: '019e0000-0000-7000-8000-000000000501', cwd: '/work/app' }).user('Start the server').running('npm run dev', true).take();
    const blocks = readCodexNodeContent(lines[lines.length - 1]!).blocks;
    expect(blocks).toEqual([{ type: 'tool_result', toolUseId: 'call_0001', text: '', isError: false, exitCode: null, running: true }]);
  });
});
