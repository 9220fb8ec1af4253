/**
 * The host side of hook-socket.ts: a running Arbor listens on the data folder's hook socket and answers each
 * request with a capture through its own API (validated there like any call, serialized with its other
 * captures). Only
 * `snapshots.capture` with a hook link is accepted. The socket is the owner's alone: created inside the data
 * folder with mode 0600 (on Windows a pipe, which other users cannot open for writing).
 *
 * One host per data folder: when another one already answers on the socket, this one does not listen. A socket
 * file left by a host that died is removed and replaced.
 */
import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { isAbsolute } from 'node:path';
import type { ArborApi } from '../../shared/contract';
import { toErrorData } from '../../shared/errors';
import { MAX_REQUEST_BYTES, type HookReply } from './hook-socket';

export interface HookListener {
  /** The socket it listens on, or null when another host already does (or it could not listen). */
  readonly path: string | null;
  stop(): Promise<void>;
}

/** True when something answers on `path` (another host); false for a leftover file or nothing at all. */
function answers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const probe = connect(path);
    const finish = (alive: boolean): void => {
      probe.destroy();
      done(alive);
    };
    probe.once('connect', () => finish(true));
    probe.once('error', () => finish(false));
    probe.setTimeout(1000, () => finish(false));
  });
}

function listen(server: Server, path: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((done) => {
    const onError = (error: NodeJS.ErrnoException): void => done(error);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      done(null);
    });
  });
}

function reply(socket: Socket, answer: HookReply): void {
  socket.end(`${JSON.stringify(answer)}\n`);
}

function serve(socket: Socket, api: ArborApi, signal: AbortSignal): void {
  let received = '';
  socket.setEncoding('utf8');
  socket.setTimeout(30_000, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    received += chunk;
    if (received.length > MAX_REQUEST_BYTES) {
      reply(socket, { ok: false, message: 'request too large' });
      socket.removeAllListeners('data');
      return;
    }
    const end = received.indexOf('\n');
    if (end < 0) return;
    socket.removeAllListeners('data');
    void answer(received.slice(0, end), api, signal).then((answered) => reply(socket, answered));
  });
}

async function answer(line: string, api: ArborApi, signal: AbortSignal): Promise<HookReply> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { ok: false, message: 'the request is not JSON' };
  }
  const { hook, dir } = (typeof request === 'object' && request !== null ? request : {}) as { hook?: unknown; dir?: unknown };
  if (hook === undefined) return { ok: false, message: 'only hook captures are taken here' };
  // The hook sends its cwd as Claude Code gave it: absolute. A relative one would name a folder of this process.
  if (typeof dir !== 'string' || !isAbsolute(dir)) return { ok: false, message: 'the folder must be an absolute path' };
  try {
    // The API validates the request like any other caller's.
    await api['snapshots.capture'](request as Parameters<ArborApi['snapshots.capture']>[0], { signal });
    return { ok: true };
  } catch (error) {
    const data = toErrorData(error);
    return { ok: false, message: `${data.message} [${data.code}]` };
  }
}

/** Listens on `path` for hook captures answered through `api` until `stop()` or `signal`. */
export async function listenForHooks(path: string, api: ArborApi, signal: AbortSignal): Promise<HookListener> {
  const notListening: HookListener = { path: null, stop: async () => undefined };
  if (signal.aborted) return notListening;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serve(socket, api, signal);
  });
  let failure = await listen(server, path);
  if (failure?.code === 'EADDRINUSE' && process.platform !== 'win32' && !(await answers(path))) {
    // Left by a host that died: nobody answers there, so it is ours to replace.
    await unlink(path).catch(() => undefined);
    failure = await listen(server, path);
  }
  if (failure !== null) return notListening;
  // A listening server's later errors (a connection that failed) are the connection's, handled in serve().
  server.on('error', () => undefined);
  if (process.platform !== 'win32') await chmod(path, 0o600).catch(() => undefined);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((done) => {
      signal.removeEventListener('abort', onAbort);
      for (const socket of sockets) socket.destroy();
      // Closing removes the socket file on Unix.
      server.close(() => done());
    }));
  const onAbort = (): void => void stop();
  signal.addEventListener('abort', onAbort, { once: true });
  return { path, stop };
}
