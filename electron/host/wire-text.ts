/**
 * The text of a WebSocket message. A large one (a session graph) goes out as pure ASCII: JSON.stringify leaves
 * characters like “✓” or “—” in labels as they are, and a single one makes the browser decode the whole
 * message into a two-byte string, then parse that; with them escaped as \uXXXX (a few KB more on a 1.3 MB
 * graph) the receive-and-parse step measured ~30% shorter in Chromium. Small messages are not worth a scan.
 */
import { isStoredChunkPage } from '../../shared/session-graph-chunks';
import { isEncodedSessionGraph } from '../../shared/session-graph-wire';
import type { ServerMessage } from '../../shared/wire';

export const ASCII_FROM_CHARS = 64 * 1024;

const NON_ASCII = /[\u0080-\uffff]/g;

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function wireText(message: ServerMessage): string {
  const frames = wireFrames(message);
  return frames.length === 1 && typeof frames[0] === 'string' ? frames[0] : frames.map((frame) => (typeof frame === 'string' ? frame : frame.toString('latin1'))).join('');
}

/**
 * The message's text as the fragments of one WebSocket text message, in order (the web host sends them with
 * `fin` on the last). A session graph's encoded form is written once per version of the session (host/dispatch.ts)
 * and kept as bytes: sent as a fragment of its own, its megabytes are neither copied into each answer's string
 * nor turned from a string into bytes again at every send (a 1 GB session's answer is ~46 MB).
 */
export function wireFrames(message: ServerMessage): readonly (string | Buffer)[] {
  if (message.t === 'res' && message.ok && isEncodedSessionGraph(message.result)) {
    let result = resultBytes.get(message.result);
    if (result === undefined) resultBytes.set(message.result, (result = asciiBytes(message.result)));
    return [`{"t":"res","id":${JSON.stringify(message.id)},"ok":true,"result":`, ...result, '}'];
  }
  // A stored graph page's chunk is JSON text already, and ASCII (session-graph-store.ts chunkText): written in
  // as a value, it is neither escaped here nor parsed twice in the page.
  if (message.t === 'res' && message.ok && isStoredChunkPage(message.result)) {
    const { chunk, ...page } = message.result;
    const head = JSON.stringify({ ...page, chunk: '' }).replace(NON_ASCII, escapeChar); // the whole message ASCII, however short the head
    // The chunk a fragment of its own: joined into the answer's string it was copied once more per page (a
    // renderer asks every page at once: 23 pages of a 1 GB session in flight together).
    return [`{"t":"res","id":${JSON.stringify(message.id)},"ok":true,"result":${head.slice(0, -1)},"chunkValue":`, chunk, '}}'];
  }
  return [asciiText(JSON.stringify(message))];
}

/** Code units one by one: a surrogate pair becomes two escapes, which JSON reads back as the same pair. */
function asciiText(text: string): string {
  return text.length < ASCII_FROM_CHARS ? text : text.replace(NON_ASCII, escapeChar);
}

/** Array entries stringified together: a few hundred KB of text per piece. */
const PIECE_ENTRIES = 8192;
/** Text gathered before it becomes one fragment's bytes. */
const FRAGMENT_CHARS = 1024 * 1024;

/**
 * JSON.stringify(value) with every non-ASCII character escaped, as ~1 MB fragments of bytes, written a column
 * slice at a time: the whole text as one string was, at 86k nodes, 22 MB of two-byte characters (one label
 * with a “ or ✓ makes the whole string two-byte) beside its 11 MB escaped copy, and joining the fragments
 * into one buffer would be another copy. Joined, the same text as asciiText(JSON.stringify(value)).
 */
function asciiBytes(value: object): Buffer[] {
  const fragments: Buffer[] = [];
  let pieces: string[] = [];
  let gathered = 0;
  const flush = (): void => {
    const bytes = Buffer.allocUnsafe(gathered);
    let offset = 0;
    for (const piece of pieces) offset += bytes.write(piece, offset, 'latin1');
    fragments.push(bytes);
    pieces = [];
    gathered = 0;
  };
  const push = (piece: string): void => {
    pieces.push(piece);
    gathered += piece.length;
    if (gathered >= FRAGMENT_CHARS) flush();
  };
  let first = true;
  push('{');
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
    push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (!Array.isArray(entry)) {
      push(JSON.stringify(entry).replace(NON_ASCII, escapeChar));
      continue;
    }
    push('[');
    for (let start = 0; start < entry.length; start += PIECE_ENTRIES) {
      const text = JSON.stringify(entry.slice(start, start + PIECE_ENTRIES)).replace(NON_ASCII, escapeChar);
      push(`${start === 0 ? '' : ','}${text.slice(1, -1)}`);
    }
    push(']');
  }
  push('}');
  flush();
  return fragments;
}

const resultBytes = new WeakMap<object, Buffer[]>();
