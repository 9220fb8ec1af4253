import { describe, expect, it } from 'vitest';
import { ASCII_FROM_CHARS, wireText } from '../../../../electron/host/wire-text';
import type { NodeSummary } from '../../../../shared/model';
import { encodeSessionGraph } from '../../../../shared/session-graph-wire';
import type { ServerMessage } from '../../../../shared/wire';

describe('wireText', () => {
  it('sends a large message as pure ASCII that parses back to the same value', () => {
    const labels = ['fix the “bug” — ✓', 'tree 🌳 and é', 'plain', '\u2028 line separator', 'ascii "quotes" \\ backslash'];
    const filler = 'x'.repeat(ASCII_FROM_CHARS);
    const message: ServerMessage = { t: 'res', id: 7, ok: true, result: { labels, filler } };
    const text = wireText(message);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(text).toContain('\\u201c');
    expect(JSON.parse(text)).toEqual(message);
  });

  it('leaves a small message as JSON.stringify wrote it', () => {
    const message: ServerMessage = { t: 'res', id: 1, ok: true, result: { title: 'café ✓' } };
    expect(wireText(message)).toBe(JSON.stringify(message));
  });

  it('writes a session graph once per version and answers each call with its own id around it', () => {
    const session = { id: 'S1', source: 'claude-code' as const, title: 't', project: null, startedAt: null, updatedAt: null, nodeCount: 2, fileCount: 1, branchCount: 0 };
    const node = (id: string, parentId: string | null, label: string): NodeSummary => ({
      id, sessionId: 'S1', sourceId: id, parentSourceId: parentId, parentId, extraEdges: [], kind: 'user', timestamp: null, label, toolCalls: [], sidechain: false, agentId: null, model: null,
    });
    const encoded = encodeSessionGraph({ session, nodes: [node('a', null, 'fix “it” ✓ '.repeat(ASCII_FROM_CHARS / 8)), node('b', 'a', 'done')] })!;
    const first: ServerMessage = { t: 'res', id: 3, ok: true, result: encoded };
    const second: ServerMessage = { t: 'res', id: 41, ok: true, result: encoded };
    const [a, b] = [wireText(first), wireText(second)];
    expect(JSON.parse(a)).toEqual(first);
    expect(JSON.parse(b)).toEqual(second);
    expect(/^[\x00-\x7f]*$/.test(b)).toBe(true);
    expect(b.replace('"id":41', '"id":3')).toBe(a);
  });
});
