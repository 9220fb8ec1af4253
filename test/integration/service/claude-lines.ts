/** Small Claude Code transcript lines for service tests (FORMATS.md §1.2 skeletons), written by the tests. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

type Line = Record<string, unknown>;

const envelope = (uuid: string, parentUuid: string | null, sessionId: string, at: number) => ({
  uuid,
  parentUuid,
  isSidechain: false,
  sessionId,
  cwd: '/repo',
  version: '2.1.39',
  gitBranch: 'main',
  timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0, at)).toISOString(),
});

export function prompt(uuid: string, parent: string | null, text: string, session = 'S1', at = 0): Line {
  return { type: 'user', ...envelope(uuid, parent, session, at), message: { role: 'user', content: text } };
}

export function reply(uuid: string, parent: string | null, text: string, session = 'S1', at = 1): Line {
  return {
    type: 'assistant',
    ...envelope(uuid, parent, session, at),
    message: { id: `msg-${uuid}`, model: 'claude-test', role: 'assistant', content: [{ type: 'text', text }] },
  };
}

export function toolCall(uuid: string, parent: string | null, id: string, name: string, input: unknown, session = 'S1', at = 2): Line {
  return {
    type: 'assistant',
    ...envelope(uuid, parent, session, at),
    message: { id: `msg-${uuid}`, model: 'claude-test', role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  };
}

export function toolResult(
  uuid: string,
  parent: string | null,
  id: string,
  text: string,
  options: { isError?: boolean; session?: string; at?: number; toolUseResult?: unknown } = {},
): Line {
  return {
    type: 'user',
    ...envelope(uuid, parent, options.session ?? 'S1', options.at ?? 3),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text, ...(options.isError ? { is_error: true } : {}) }] },
    ...(options.toolUseResult !== undefined ? { toolUseResult: options.toolUseResult } : {}),
  };
}

export function compactBoundary(uuid: string, logicalParent: string, session = 'S1', at = 10): Line {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    ...envelope(uuid, null, session, at),
    logicalParentUuid: logicalParent,
    compactMetadata: { trigger: 'manual', preTokens: 1000 },
  };
}

export function summary(text: string, leafUuid: string): Line {
  return { type: 'summary', summary: text, leafUuid };
}

export const jsonl = (lines: readonly Line[]): string => lines.map((line) => JSON.stringify(line) + '\n').join('');

export function writeTranscript(path: string, lines: readonly Line[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonl(lines));
}

export function appendTranscript(path: string, text: string): void {
  appendFileSync(path, text);
}
