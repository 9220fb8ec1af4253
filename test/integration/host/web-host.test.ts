import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONTENT_SECURITY_POLICY, PAGE_CONTENT_SECURITY_POLICY } from '../../../electron/host/content-security';
import { startWebHost, type WebHost } from '../../../electron/host/web-host';
import type { ServerMessage } from '../../../shared/wire';
import { FAKE_SESSION, createFakeService, type FakeService } from '../../fakes/fake-service';

interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpResult> {
  return new Promise((done, fail) => {
    // node:http lets us send any Host header, which a browser (and fetch) would not.
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Opens a socket; resolves with it when open, or with the HTTP status the upgrade was refused with. */
function connect(url: string, origin: string | undefined, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(url, { ...(origin === undefined ? {} : { origin }), headers });
    ws.once('open', () => done(ws));
    ws.once('unexpected-response', (_req, res) => {
      done(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (error) => fail(error));
  });
}

function nextMessage(ws: WebSocket, predicate: (m: ServerMessage) => boolean = () => true): Promise<ServerMessage> {
  return new Promise((done) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (!predicate(message)) return;
      ws.off('message', onMessage);
      done(message);
    };
    ws.on('message', onMessage);
  });
}

function closeCode(ws: WebSocket): Promise<number> {
  return new Promise((done) => ws.once('close', (code) => done(code)));
}

describe('arbor serve web host', () => {
  let dir: string;
  let rendererDir: string;
  let service: FakeService;
  let host: WebHost;
  let sockets: WebSocket[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-host-'));
    rendererDir = join(dir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Arbor test</title>');
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'do not serve me');
    service = createFakeService();
    host = await startWebHost({ service, rendererDir });
    sockets = [];
  });

  afterEach(async () => {
    for (const ws of sockets) ws.terminate();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wsUrl = (token = host.token): string => `ws://127.0.0.1:${host.port}/ws?token=${token}`;
  const origin = (): string => `http://127.0.0.1:${host.port}`;
  async function open(): Promise<WebSocket> {
    const ws = await connect(wsUrl(), origin());
    if (typeof ws === 'number') throw new Error(`upgrade refused with ${ws}`);
    sockets.push(ws);
    return ws;
  }

  it('listens on 127.0.0.1 with a fresh 64-hex-digit token in the page URL', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
    const other = await startWebHost({ service, rendererDir });
    expect(other.token).not.toBe(host.token);
    await other.close();
  });

  it('serves the renderer with content types and security headers', async () => {
    const page = await get(host.port, '/?token=x');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Arbor test');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    const script = await get(host.port, '/assets/app.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get(host.port, '/assets/missing.js')).status).toBe(404);
    expect((await get(host.port, '/', {}, 'POST')).status).toBe(405);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00', '/%E0%A4%A']) {
      const res = await get(host.port, path);
      expect(res.body, path).not.toContain('do not serve me');
      expect([400, 404], path).toContain(res.status);
    }
    symlinkSync(join(dir, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'));
    const viaLink = await get(host.port, '/assets/link.txt');
    expect(viaLink.status).toBe(404);
    expect(viaLink.body).not.toContain('do not serve me');
  });

  it('refuses requests whose Host header is not our loopback address (DNS rebinding)', async () => {
    expect((await get(host.port, '/', { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await get(host.port, '/', { host: `127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await get(host.port, '/', { host: `localhost:${host.port}` })).status).toBe(200);
  });

  it('says to run npm run build when the renderer has not been built', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const bare = await startWebHost({ service, rendererDir: empty });
    const res = await get(bare.port, '/');
    await bare.close();
    expect(res.status).toBe(503);
    expect(res.body).toContain('npm run build');
  });

  it('refuses WebSocket upgrades without the token, with a wrong token, or from another origin', async () => {
    expect(await connect(`ws://127.0.0.1:${host.port}/ws`, origin())).toBe(401);
    expect(await connect(wsUrl('0'.repeat(64)), origin())).toBe(401);
    expect(await connect(wsUrl(`${host.token}x`), origin())).toBe(401);
    expect(await connect(wsUrl(), 'http://evil.example')).toBe(403);
    expect(await connect(wsUrl(), undefined)).toBe(403);
    expect(await connect(wsUrl(), origin(), { host: `evil.example:${host.port}` })).toBe(403);
    expect(await connect(`ws://127.0.0.1:${host.port}/other?token=${host.token}`, origin())).toBe(404);
  });

  it('answers a call with its result, and errors as data with their code', async () => {
    const ws = await open();
    ws.send(JSON.stringify({ t: 'req', id: 1, method: 'sessions.list', params: { limit: 5 } }));
    expect(await nextMessage(ws)).toEqual({ t: 'res', id: 1, ok: true, result: { sessions: [FAKE_SESSION], total: 1 } });
    expect(service.calls).toEqual([{ method: 'sessions.list', request: { limit: 5 } }]);

    ws.send(JSON.stringify({ t: 'req', id: 2, method: 'sessions.graph', params: { sessionId: 'nope' } }));
    expect(await nextMessage(ws)).toMatchObject({ t: 'res', id: 2, ok: false, error: { code: 'NOT_FOUND' } });
    ws.send(JSON.stringify({ t: 'req', id: 3, method: 'demo.create', params: {} }));
    expect(await nextMessage(ws)).toMatchObject({ id: 3, ok: false, error: { code: 'INTERNAL', message: 'boom: a bug' } });
  });

  it('validates every request before the service sees it', async () => {
    const ws = await open();
    const bad = [
      { method: 'no.such.method', params: {} },
      { method: 'sessions.list', params: { limit: 'ten' } },
      { method: 'sessions.list', params: { extra: 1 } },
      { method: 'sessions.graph', params: {} },
      { method: '__proto__', params: {} },
    ];
    for (const [i, call] of bad.entries()) {
      ws.send(JSON.stringify({ t: 'req', id: 10 + i, ...call }));
      expect(await nextMessage(ws), call.method).toMatchObject({ t: 'res', id: 10 + i, ok: false, error: { code: 'BAD_REQUEST' } });
    }
    expect(service.calls).toEqual([]);
  });

  it('closes the socket on messages it cannot answer', async () => {
    const notJson = await open();
    const closed = closeCode(notJson);
    notJson.send('{not json');
    expect(await closed).toBe(1007);
    const noId = await open();
    const closedToo = closeCode(noId);
    noId.send(JSON.stringify({ t: 'req', method: 'app.info', params: {} }));
    expect(await closedToo).toBe(1007);
    const huge = await open();
    const closedHuge = closeCode(huge);
    huge.send('x'.repeat(2 * 1024 * 1024));
    expect(await closedHuge).toBe(1009);
  });

  it('cancels a running call on a cancel message, and answers CANCELLED', async () => {
    const ws = await open();
    ws.send(JSON.stringify({ t: 'req', id: 7, method: 'import.run', params: {} }));
    await service.importStarted;
    ws.send(JSON.stringify({ t: 'cancel', id: 7 }));
    expect(await nextMessage(ws)).toMatchObject({ t: 'res', id: 7, ok: false, error: { code: 'CANCELLED' } });
    expect(service.importAborted).toBe(true);
  });

  it('aborts running calls when the socket closes', async () => {
    const ws = await open();
    ws.send(JSON.stringify({ t: 'req', id: 1, method: 'import.run', params: { paths: ['/x'] } }));
    await service.importStarted;
    ws.close();
    await expect.poll(() => service.importAborted).toBe(true);
  });

  it('forwards service events to every connected page', async () => {
    const a = await open();
    const b = await open();
    const gotA = nextMessage(a);
    const gotB = nextMessage(b);
    service.emit('sessions.changed', { sessionIds: ['s1'] });
    const expected = { t: 'evt', event: 'sessions.changed', payload: { sessionIds: ['s1'] } };
    expect(await gotA).toEqual(expected);
    expect(await gotB).toEqual(expected);
  });

  it('unsubscribes from the service and drops sockets on close', async () => {
    const ws = await open();
    expect(service.listenerCount()).toBeGreaterThan(0);
    const closed = closeCode(ws);
    await host.close();
    await closed;
    expect(service.listenerCount()).toBe(0);
    host = await startWebHost({ service, rendererDir }); // afterEach closes this one
  });

  it('sends the CSP the renderer page declares, plus frame-ancestors (header-only)', () => {
    const html = readFileSync(resolve(__dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(PAGE_CONTENT_SECURITY_POLICY);
    expect(meta?.[1]).not.toContain('frame-ancestors');
  });
});
