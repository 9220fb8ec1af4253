/**
 * File bytes as the text merge sees them. Pure (TextDecoder/TextEncoder exist in browsers and Node), so the
 * merge view decides "binary or text" exactly as the main side does.
 */

/** How a file's bytes were turned into the string the line merge works on. */
export type TextEncodingName = 'utf8' | 'latin1';

/** Like git: a NUL byte in the first 8000 bytes makes a file binary. */
export function isBinaryBytes(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

// ignoreBOM keeps a byte-order mark in the text, so it survives the round trip.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Text that is not UTF-8 is merged as latin1, one char per byte, which the line merge treats byte for byte
 * (as git does): nothing is lost or replaced on the way back.
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncodingName): string {
  if (encoding === 'utf8') return strictUtf8.decode(bytes);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return text;
}

export function encodeText(text: string, encoding: TextEncodingName): Uint8Array {
  if (encoding === 'utf8') return encoder.encode(text);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/** One encoding for all versions of a file: UTF-8 when every version is, else latin1 (byte-exact). */
export function commonEncoding(versions: readonly Uint8Array[]): TextEncodingName {
  return versions.every(isUtf8) ? 'utf8' : 'latin1';
}
