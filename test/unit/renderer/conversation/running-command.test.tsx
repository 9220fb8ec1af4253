/**
 * A shell command still running when its output was recorded, or with no output line at all: the row and the
 * inspector's card say so, never "(no output)" as if it had finished silently.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ToolCallDetail } from '../../../../shared/model';
import { ToolCallRow } from '../../../../renderer/src/conversation/ToolCallRow';
import { ToolCallView } from '../../../../renderer/src/inspector/ToolCallView';

afterEach(cleanup);

const shell = (over: Partial<ToolCallDetail>): ToolCallDetail => ({
  id: 'call_1',
  name: 'exec_command',
  outcome: 'ok',
  input: { cmd: 'npm run dev' },
  shape: { kind: 'shell', command: 'npm run dev' },
  resultNodeId: 'r1',
  resultText: '',
  durationMs: 10_000,
  ...over,
});

describe('a running command', () => {
  it('the conversation row says running — no output yet', () => {
    render(<ToolCallRow call={shell({ running: true })} cwd={null} full={false} />);
    expect(screen.getByTestId('conversation-output-empty').textContent).toBe('running — no output yet');
    expect(screen.getByTestId('conversation-call').textContent).not.toContain('(no output)');
  });

  it('the inspector card says it too, and a running command with output says it went on', () => {
    render(<ToolCallView call={shell({ running: true, resultText: 'listening on :3000\n' })} onOpenNode={() => {}} />);
    expect(screen.getByTestId('conversation-output').textContent).toBe('listening on :3000');
    expect(screen.getByTestId('conversation-output-running').textContent).toBe('still running when this was recorded');
  });

  it('a finished command with empty output still reads (no output)', () => {
    render(<ToolCallRow call={shell({ exitCode: 0 })} cwd={null} full={false} />);
    expect(screen.getByTestId('conversation-output-empty').textContent).toBe('(no output)');
  });

  it('a begun command with no output line reads outcome not recorded', () => {
    render(<ToolCallRow call={shell({ outcome: 'missing', resultNodeId: null, resultText: null, durationMs: null })} cwd={null} full={false} />);
    expect(screen.getByTestId('tool-outcome').textContent).toBe('outcome not recorded');
    expect(screen.queryByTestId('conversation-output-empty')).toBeNull();
  });
});
