/**
 * The raw bytes of a parsed line as the parse worker sends them: a view into the line reader's buffer, whose
 * ArrayBuffer is transferred with the batch (never copied). A parser that hands over a view into a buffer already
 * sent with an earlier batch (the Codex parser once did, for a step it held back) hands over detached memory,
 * which reads as zero bytes: stored, the line would be lost without a word. That is refused, as a bug, by code.
 */
import { ArborError } from '../../../shared/errors';

/** Where the line came from, for the error. */
export interface LinePlace {
  readonly file: string;
  readonly line: number;
  /** The line's length as read (ParsedNode.rawBytes). */
  readonly rawBytes: number;
}

/**
 * `raw` itself when its buffer can be transferred (added to `transfer`); a copy when it is a slice of Node's shared
 * pool (an oversize line's kept head, in tests), which cannot be. Throws INTERNAL for a view into detached memory.
 */
export function keptRaw(raw: Buffer, transfer: Set<ArrayBuffer>, place: LinePlace): Buffer {
  if (raw.buffer.byteLength === 0 && place.rawBytes > 0) {
    throw new ArborError(
      'INTERNAL',
      `The ${place.file} parser handed over line ${place.line} as a view into a read buffer already sent with an earlier batch: the file is not stored rather than stored without it`,
      { file: place.file, line: place.line, reason: 'detached-line-buffer' },
    );
  }
  if (raw.buffer.byteLength > Buffer.poolSize) {
    transfer.add(raw.buffer as ArrayBuffer);
    return raw;
  }
  const own = new Uint8Array(raw);
  transfer.add(own.buffer);
  return Buffer.from(own.buffer);
}
