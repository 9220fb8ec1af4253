/**
 * A session graph over the real `arbor serve` path: store → service → web host → WebSocket. It travels in
 * its compact form and decodes to exactly what the service returned.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { syntheticSessionLines } from '../../../electron/demo/synthetic';
import { startWebHost, type WebHost } from '../../../electron/host/web-host';
import { ASCII_FROM_CHARS } from '../../../electron/host/wire-text';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { SessionGraph } from '../../../shared/model';
import { decodeSessionGraph, isEncodedSessionGraph } from '../../../shared/session-graph-wire';
import type { ServerMessage } from '../../../shared/wire';

const SESSION_ID = '0b7c1d2e-0000-4000-8000-000000000300';

describe('session graph transport', () => {
  let dir: string;
  let service: ArborService;
  let host: WebHost;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-graph-wire-'));
    const project = join(dir, 'projects', '-home-dev-app');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${SESSION_ID}.jsonl`), [...syntheticSessionLines(900, { seed: 3, sessionId: SESSION_ID })].join('\n') + '\n');
    service = await createArborService({ dataDir: join(dir, 'data'), host: 'web', version: '0.0.0-test', homeDir: join(dir, 'home'), env: {} });
    await service.api['import.run']({ paths: [join(dir, 'projects')] });
    host = await startWebHost({ service, rendererDir: join(dir, 'renderer') });
  });

  afterAll(async () => {
    await host.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the compact form, which decodes to the service graph', async () => {
    const expected: SessionGraph = await service.api['sessions.graph']({ sessionId: SESSION_ID });
    expect(expected.nodes.length).toBeGreaterThan(800);
    expect(expected.nodes.some((node) => node.toolCalls.length > 0)).toBe(true);
    expect(expected.nodes.some((node) => node.extraEdges.length > 0)).toBe(true);

    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
    try {
      await new Promise<void>((done, fail) => {
        ws.once('open', () => done());
        ws.once('error', fail);
      });
      // Events (background indexing progress) may arrive first: wait for the response itself.
      const answer = new Promise<{ message: ServerMessage; text: string }>((done) => {
        const onMessage = (data: WebSocket.RawData) => {
          const message = JSON.parse(data.toString()) as ServerMessage;
          if (message.t === 'evt') return;
          ws.off('message', onMessage);
          done({ message, text: data.toString() });
        };
        ws.on('message', onMessage);
      });
      ws.send(JSON.stringify({ t: 'req', id: 1, method: 'sessions.graph', params: { sessionId: SESSION_ID } }));
      const { message, text } = await answer;
      if (message.t !== 'res' || !message.ok) throw new Error(`unexpected answer ${JSON.stringify(message).slice(0, 200)}`);
      expect(isEncodedSessionGraph(message.result)).toBe(true);
      if (!isEncodedSessionGraph(message.result)) return;
      expect(decodeSessionGraph(message.result)).toEqual(expected);
      expect(text.length).toBeLessThan(JSON.stringify(expected).length * 0.5);
      // Labels with characters like “—” travel escaped: the whole message is ASCII (wire-text.ts).
      expect(expected.nodes.some((node) => /[^\x00-\x7f]/.test(node.label))).toBe(true);
      expect(text.length).toBeGreaterThan(ASCII_FROM_CHARS);
      expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    } finally {
      ws.terminate();
    }
  });
});
