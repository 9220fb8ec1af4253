/**
 * The parse worker refuses a line whose bytes are a view into a read buffer it already sent (the Codex parser once
 * held a step across reads, and every rollout over 4 MB imported nothing): a coded INTERNAL error naming the file and
 * line, never a line stored as zero bytes.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ArborError } from '../../../../../shared/errors';
import { keptRaw } from '../../../../../electron/importers/worker/kept-raw';

/** Sends the buffers as a batch does: transferred, so they are detached on this side. */
function send(transfer: Set<ArrayBuffer>): void {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, [...transfer]);
  port1.close();
  port2.close();
  transfer.clear();
}

/** A parser that keeps the last line of each read and hands it over after the next read, as a view. */
function* badParser(reads: readonly string[]): Generator<{ raw: Buffer; line: number; rawBytes: number; readEnded: boolean }> {
  let held: { raw: Buffer; line: number; rawBytes: number } | null = null;
  let line = 0;
  for (const text of reads) {
    const buffer = Buffer.allocUnsafeSlow(Buffer.poolSize * 2);
    const length = buffer.write(text);
    if (held !== null) yield { ...held, readEnded: false };
    held = { raw: buffer.subarray(0, length), line: ++line, rawBytes: length };
    yield { raw: buffer.subarray(0, 1), line: ++line, rawBytes: 1, readEnded: true };
  }
}

describe('keptRaw', () => {
  it('hands back a reader buffer view itself and transfers its buffer', () => {
    const buffer = Buffer.allocUnsafeSlow(Buffer.poolSize * 2);
    buffer.write('{"uuid":"a"}');
    const transfer = new Set<ArrayBuffer>();
    const view = buffer.subarray(0, 12);
    expect(keptRaw(view, transfer, { file: 'f', line: 1, rawBytes: 12 })).toBe(view);
    expect([...transfer]).toEqual([buffer.buffer]);
  });

  it("copies a slice of Node's shared pool, which cannot be transferred", () => {
    const pooled = Buffer.from('{"uuid":"b"}');
    const transfer = new Set<ArrayBuffer>();
    const kept = keptRaw(pooled, transfer, { file: 'f', line: 1, rawBytes: pooled.length });
    expect(kept.equals(pooled)).toBe(true);
    expect(kept.buffer).not.toBe(pooled.buffer);
    expect(transfer.size).toBe(1);
  });

  it('refuses, with INTERNAL, a line a parser held in a buffer already sent with an earlier batch (it was stored as zero bytes)', () => {
    const transfer = new Set<ArrayBuffer>();
    let failure: unknown = null;
    try {
      for (const item of badParser(['{"uuid":"first"}', '{"uuid":"second"}'])) {
        keptRaw(item.raw, transfer, { file: '/t/rollout.jsonl', line: item.line, rawBytes: item.rawBytes });
        if (item.readEnded) send(transfer); // the batch goes before the next read, as the worker's beforeRead does
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ArborError);
    expect(failure).toMatchObject({ code: 'INTERNAL', data: { file: '/t/rollout.jsonl', line: 1, reason: 'detached-line-buffer' } });
  });
});
