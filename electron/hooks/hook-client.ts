/**
 * The hook side of hook-socket.ts: hand a capture to the running Arbor, if there is one. Anything short of
 * its "captured" answer (no socket, a socket someone else owns, no answer in time, a refusal) says so, and the
 * hook captures on its own: handing over only ever saves time, it never loses a snapshot.
 */
import { lstat } from 'node:fs/promises';
import { connect } from 'node:net';
import { MAX_REQUEST_BYTES, type HookReply, type HookRequest } from './hook-socket';

export type HandOver = { readonly status: 'captured' } | { readonly status: 'no-host' } | { readonly status: 'failed'; readonly reason: string };

/** How long a connection may take: a live host accepts at once, so waiting longer only delays the fallback. */
const CONNECT_MS = 250;
/**
 * How long the host may take to capture: ~0.1 s for 10k files, so this only ends a host that is stuck; the
 * hook then still has most of its time limit to capture by itself.
 */
export const ANSWER_MS = 8_000;

/**
 * On Unix the socket must be a socket owned by this user: in a shared temporary folder another user could
 * have put one there to take (and drop) the captures.
 */
async function ownSocket(path: string): Promise<boolean> {
  if (process.platform === 'win32') return true;
  try {
    const info = await lstat(path);
    return info.isSocket() && (typeof process.getuid !== 'function' || info.uid === process.getuid());
  } catch {
    return false;
  }
}

export async function handOverCapture(path: string, request: HookRequest, signal: AbortSignal, answerMs = ANSWER_MS): Promise<HandOver> {
  if (signal.aborted || !(await ownSocket(path))) return { status: 'no-host' };
  return new Promise<HandOver>((done) => {
    const socket = connect(path);
    let connected = false;
    let received = '';
    let settled = false;
    const finish = (outcome: HandOver): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      done(outcome);
    };
    const onAbort = (): void => finish({ status: 'failed', reason: 'stopped waiting for the running Arbor' });
    const connectTimer = setTimeout(() => finish({ status: 'no-host' }), CONNECT_MS);
    let answerTimer: NodeJS.Timeout | undefined;
    signal.addEventListener('abort', onAbort, { once: true });
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      answerTimer = setTimeout(() => finish({ status: 'failed', reason: `no answer within ${answerMs} ms` }), answerMs);
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end < 0 && received.length <= MAX_REQUEST_BYTES) return;
      let answer: HookReply | undefined;
      try {
        answer = JSON.parse(received.slice(0, end)) as HookReply;
      } catch {
        answer = undefined;
      }
      if (answer?.ok === true) finish({ status: 'captured' });
      else finish({ status: 'failed', reason: answer?.ok === false ? String(answer.message) : 'an unreadable answer' });
    });
    socket.once('error', (error) => finish(connected ? { status: 'failed', reason: error.message } : { status: 'no-host' }));
    socket.once('close', () => finish(connected ? { status: 'failed', reason: 'the running Arbor closed the connection' } : { status: 'no-host' }));
  });
}
