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
  // A session graph's encoded form is made once per version of the session (host/dispatch.ts), so its text
  // is too: a 100k-node graph is ~13 MB to stringify and scan, and reopening it need not pay that again.
  if (message.t === 'res' && message.ok && isEncodedSessionGraph(message.result)) {
    let result = resultTexts.get(message.result);
    if (result === undefined) resultTexts.set(message.result, (result = asciiText(JSON.stringify(message.result))));
    return `{"t":"res","id":${JSON.stringify(message.id)},"ok":true,"result":${result}}`;
  }
  // A stored graph page's chunk is JSON text already, and ASCII (session-graph-store.ts chunkText): written in
  // as a value, it is neither escaped here nor parsed twice in the page.
  if (message.t === 'res' && message.ok && isStoredChunkPage(message.result)) {
    const { chunk, ...page } = message.result;
    const head = JSON.stringify({ ...page, chunk: '' }).replace(NON_ASCII, escapeChar); // the whole message ASCII, however short the head
    return `{"t":"res","id":${JSON.stringify(message.id)},"ok":true,"result":${head.slice(0, -1)},"chunkValue":${chunk}}}`;
  }
  return asciiText(JSON.stringify(message));
}

/** Code units one by one: a surrogate pair becomes two escapes, which JSON reads back as the same pair. */
function asciiText(text: string): string {
  return text.length < ASCII_FROM_CHARS ? text : text.replace(NON_ASCII, escapeChar);
}

const resultTexts = new WeakMap<object, string>();
