/**
 * `arbor serve`: the renderer over HTTP and the contract over one WebSocket, on 127.0.0.1 only.
 * Defences, in order: loopback bind; Host header must name our port (DNS rebinding); the WebSocket needs
 * the per-launch token and our own Origin (other pages in the same browser cannot connect).
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_NAMES, type EventName } from '../../shared/contract';
import { TOKEN_PARAM, WS_PATH, type ServerMessage } from '../../shared/wire';
import type { ArborService } from '../service/service-types';
import { MAX_MESSAGE_BYTES, createSocketSession } from './socket-session';
import { sendText, serveStatic } from './static-files';
import { wireFrames, wireText } from './wire-text';

export interface WebHostOptions {
  readonly service: ArborService;
  readonly rendererDir: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Defaults to 32 random bytes, hex, new on every launch. */
  readonly token?: string;
}

export interface WebHost {
  /** The page to open: http://127.0.0.1:PORT/?token=… */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(32).toString('hex');
  if (token.length === 0) throw new Error('the web host token must not be empty');
  const tokenDigest = digest(token);
  const sockets = new Set<WebSocket>();
  let port = 0;

  const allowedHosts = (): readonly string[] => [`${LOOPBACK}:${port}`, `localhost:${port}`];
  const hostAllowed = (request: IncomingMessage): boolean => allowedHosts().includes((request.headers.host ?? '').toLowerCase());

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (!hostAllowed(request)) {
      sendText(response, 403, 'Forbidden: unexpected Host header\n');
      return;
    }
    serveStatic(options.rendererDir, request, response).catch(() => {
      if (!response.headersSent) sendText(response, 500, 'Internal error\n');
      else response.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = checkUpgrade(request);
    if (refusal !== undefined) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  });

  function checkUpgrade(request: IncomingMessage): string | undefined {
    if (!hostAllowed(request)) return '403 Forbidden';
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (url.pathname !== WS_PATH) return '404 Not Found';
    const origin = request.headers.origin;
    // The page and its socket share an origin; the Host check above already pinned the host to ours.
    if (origin === undefined || origin.toLowerCase() !== `http://${(request.headers.host ?? '').toLowerCase()}`) return '403 Forbidden';
    const offered = url.searchParams.get(TOKEN_PARAM);
    if (offered === null || !timingSafeEqual(digest(offered), tokenDigest)) return '401 Unauthorized';
    return undefined;
  }

  function accept(ws: WebSocket): void {
    sockets.add(ws);
    const send = (message: ServerMessage): Promise<void> | undefined => {
      if (ws.readyState !== ws.OPEN) return undefined;
      // One text message, in fragments when it is a graph kept as bytes (wire-text.ts); sent in one go, nothing interleaves.
      const frames = wireFrames(message);
      // The last fragment's callback: the message is written to the socket (or the socket failed), its bytes let go.
      return new Promise((written) => {
        for (let i = 0; i < frames.length; i++) ws.send(frames[i]!, { binary: false, fin: i === frames.length - 1 }, i === frames.length - 1 ? () => written() : undefined);
      });
    };
    const session = createSocketSession(options.service.api, send);
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.close(1003, 'text frames only');
        return;
      }
      const violation = session.receive(rawText(data));
      if (violation !== undefined) ws.close(violation.code, violation.reason);
    });
    ws.on('close', () => {
      session.dispose();
      sockets.delete(ws);
    });
    ws.on('error', () => ws.terminate());
  }

  // Every connected page hears every service event (import progress, sessions changed, indexing).
  const unsubscribe = EVENT_NAMES.map((event: EventName) =>
    options.service.events.on(event, (payload) => {
      const text = wireText({ t: 'evt', event, payload } satisfies ServerMessage);
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
    }),
  );

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('web host did not get a TCP port');
  port = address.port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${LOOPBACK}:${port}/?${TOKEN_PARAM}=${token}`,
    port,
    token,
    close() {
      closing ??= (async () => {
        for (const dispose of unsubscribe) dispose();
        for (const ws of sockets) ws.terminate();
        await new Promise<void>((done) => wss.close(() => done()));
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function digest(text: string): Buffer {
  // Hashing first makes the comparison constant-time whatever the offered token's length.
  return createHash('sha256').update(text, 'utf8').digest();
}

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
