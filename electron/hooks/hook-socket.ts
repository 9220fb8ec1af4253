/**
 * Where a running Arbor (the app, `arbor serve`, `arbor watch`) takes hook captures from `arbor snapshot
 * --hook`: a Unix socket in the data folder (a named pipe on Windows). A hook that finds it hands the capture
 * over instead of opening the store itself: the host's stat cache and code are warm, so the agent waits a
 * fraction of a cold process's time. One request per connection, one line of JSON each way.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookCapture } from '../../shared/contract';

export interface HookRequest {
  readonly dir: string;
  readonly hook: HookCapture;
}

/** The host's answer: captured, or why not (the hook then captures on its own). */
export type HookReply = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** A request line is a path or two and ids: anything longer is not one. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** sun_path holds 104 bytes on macOS and 108 on Linux, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * The socket for a data folder. On Windows, a pipe named after the folder; elsewhere `hooks.sock` inside it,
 * or, when that path is too long for a socket, a name derived from the folder in `fallbackDir` (the caller
 * checks who owns what it finds there).
 */
export function hookSocketPath(dataDir: string, platform: NodeJS.Platform = process.platform, fallbackDir = tmpdir()): string {
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 24);
  if (platform === 'win32') return `\\\\.\\pipe\\arbor-hooks-${key}`;
  const inside = join(dataDir, 'hooks.sock');
  return Buffer.byteLength(inside) <= MAX_SOCKET_PATH_BYTES ? inside : join(fallbackDir, `arbor-hooks-${key}.sock`);
}
