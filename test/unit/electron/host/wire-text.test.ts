import { describe, expect, it } from 'vitest';
import { ASCII_FROM_CHARS, wireFrames, wireText } from '../../../../electron/host/wire-text';
import type { NodeSummary } from '../../../../shared/model';
import { chunkOfPage, encodeSessionGraphChunk, type SessionGraphPage } from '../../../../shared/session-graph-chunks';
import { chunkText } from '../../../../electron/db/session-graph-store';
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

  it('keeps a session graph as bytes written a slice at a time, sent as fragments of their own, the same text as one JSON.stringify', () => {
    const session = { id: 'S1', source: 'claude-code' as const, title: 'café', project: null, startedAt: null, updatedAt: null, nodeCount: 60_000, fileCount: 1, branchCount: 0 };
    const nodes: NodeSummary[] = Array.from({ length: 60_000 }, (_, k) => ({
      id: `n${k}`, sessionId: 'S1', sourceId: `n${k}`, parentSourceId: k === 0 ? null : `n${k - 1}`, parentId: k === 0 ? null : `n${k - 1}`, extraEdges: [], kind: 'user',
      timestamp: null, label: k % 9000 === 8191 ? `fix “it” ✓ 🌳 ${k}` : `step ${k} of the session`, toolCalls: [], sidechain: false, agentId: null, model: null,
    }));
    const encoded = encodeSessionGraph({ session, nodes })!;
    const message: ServerMessage = { t: 'res', id: 5, ok: true, result: encoded };
    const frames = wireFrames(message);
    // ~2.5 MB of text: more than one fragment of bytes between the answer's head and its end.
    expect(frames.length).toBeGreaterThan(3);
    expect(frames.slice(1, -1).every((frame) => Buffer.isBuffer(frame))).toBe(true);
    // Written once per version: the next answer sends the same bytes.
    const again = wireFrames({ ...message, id: 6 });
    expect(again.length === frames.length && again.slice(1, -1).every((frame, k) => frame === frames[k + 1])).toBe(true);
    const escaped = JSON.stringify(message).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const text = wireText(message);
    expect(text === escaped).toBe(true); // not toBe: a diff of 2.5 MB strings takes the test's time
    expect((JSON.parse(text) as { result: unknown }).result).toEqual(encoded);
  });

  it('writes a stored graph page\'s chunk in as a value, not as an escaped string', () => {
    const node = (id: string, parentId: string | null, label: string): NodeSummary => ({
      id, sessionId: 'S1', sourceId: id, parentSourceId: parentId, parentId, extraEdges: [], kind: 'user', timestamp: null, label, toolCalls: [], sidechain: false, agentId: null, model: null,
    });
    const chunk = encodeSessionGraphChunk('S1', [node('a', null, 'say "hi" ✓'), node('b', 'a', 'plain')])!;
    const session = { id: 'S1', source: 'claude-code' as const, title: 'café ✓', project: null, startedAt: null, updatedAt: null, nodeCount: 2, fileCount: 1, branchCount: 0 };
    const page: SessionGraphPage = { version: 'v1', page: 0, pages: 1, session, chunk: chunkText(chunk) };
    const text = wireText({ t: 'res', id: 9, ok: true, result: page });
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(text).toContain('"chunk":"","chunkValue":{"ids":["a","b"]');
    const sent = JSON.parse(text) as { id: number; result: SessionGraphPage };
    expect(sent.id).toBe(9);
    expect(sent.result).toEqual({ version: 'v1', page: 0, pages: 1, session, chunk: '', chunkValue: chunk });
    expect(chunkOfPage(sent.result)).toEqual(chunkOfPage(page));
  });

  it('sends a page whose chunk text is not a stored chunk as a plain string', () => {
    const page: SessionGraphPage = { version: 'v1', page: 0, pages: 1, chunk: '{"ids":[]}' };
    expect(JSON.parse(wireText({ t: 'res', id: 2, ok: true, result: page }))).toEqual({ t: 'res', id: 2, ok: true, result: page });
  });
});
