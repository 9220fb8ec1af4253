/**
 * Graph pages over a real `arbor serve` socket to a client that reads slowly: the host reads the next page only
 * once the earlier ones have been written out (electron/host/call-slots.ts), so a client that asks every
 * page at once and then does not read holds the host to a few pages, not the whole session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../../electron/host/web-host';
import { SESSION_GRAPH_CHUNK_CODEC, type SessionGraphPage } from '../../../shared/session-graph-chunks';
import type { ServerMessage } from '../../../shared/wire';
import { answerGraphPages, createFakeService } from '../../fakes/fake-service';

const PAGES = 48;
/** Each page's chunk: ~1 MB, so the pages together are far more than the socket buffers on the way hold. */
const PAD = 'x'.repeat(1024 * 1024);

describe('graph pages to a slow reader', () => {
  let dir: string;
  let host: WebHost;
  let read: number[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-pages-slow-'));
    const service = createFakeService();
    read = answerGraphPages(service, (page) => ({ version: 'v1', page, pages: PAGES, chunk: `{"pad":"${PAD}","page":${page},"codec":${JSON.stringify(SESSION_GRAPH_CHUNK_CODEC)}}` }));
    host = await startWebHost({ service, rendererDir: dir });
  });

  afterEach(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads pages only as the socket drains, not every page before the reader takes the first', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}`, maxPayload: 2 ** 30 });
    await new Promise((resolve) => ws.once('open', resolve));
    const answers: ServerMessage[] = [];
    ws.on('message', (data) => answers.push(JSON.parse(String(data)) as ServerMessage));
    ws.pause();
    for (let page = 0; page < PAGES; page++) ws.send(JSON.stringify({ t: 'req', id: page, method: 'sessions.graphPage', params: { sessionId: 'S1', page } }));
    // Until the host stops reading pages: the socket's buffers are full and the reader has taken nothing.
    let before = -1;
    while (read.length !== before) {
      before = read.length;
      await sleep(200);
    }
    expect(answers).toEqual([]);
    // Regression: all 23 pages of a 1 GB session were read and queued together (+160 MB in the host).
    expect(read.length).toBeLessThan(PAGES / 2);
    ws.resume();
    while (answers.length < PAGES) await sleep(20);
    expect(read).toEqual(Array.from({ length: PAGES }, (_, page) => page));
    expect(answers.map((answer) => (answer as { id: number }).id)).toEqual(read);
    const last = answers.at(-1) as { result: SessionGraphPage };
    expect((last.result.chunkValue as unknown as { pad: string; page: number }).page).toBe(PAGES - 1);
    expect((last.result.chunkValue as unknown as { pad: string }).pad).toHaveLength(PAD.length);
    ws.terminate();
  });
});
