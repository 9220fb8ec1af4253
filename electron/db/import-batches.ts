/**
 * Where an import's write batches end (import-writer.ts), as one rule: the parse worker applies the same rule to pack
 * and compress a file's raw-line blocks ahead (blocks-ahead.ts), and a block the writer builds is the one the worker
 * built only if both cut the file's lines into the same batches.
 */

/**
 * Flush after this many lines or raw bytes, whichever comes first: bounds memory on huge files. Each commit
 * rewrites every index page its batch touched (ids are random, pages 64 KiB), so batches are not small:
 * on a 1 GB transcript 8000 lines / 24 MiB wrote 1.9 GB to disk against 2.5 GB with 4000 / 16 MiB, at a
 * peak RSS of ~410 MB (32 MiB batches reached ~470 MB, too near the 500 MB budget).
 */
export const BATCH_LINES = 8000;
export const BATCH_BYTES = 24 * 1024 * 1024;
/**
 * A file's first batch is small, so its session is stored (and can be listed and opened) a moment after the
 * import reaches it, not after the first 8000 lines.
 */
export const FIRST_BATCH_LINES = 500;

/** The bytes a parsed line counts toward its batch: its raw bytes as read, and a node's search text when it has one. */
export function batchBytesOf(line: { readonly raw: Uint8Array; readonly text?: string | null }): number {
  return line.raw.length + (line.text?.length ?? 0);
}

/** Whether a batch holding `lines` lines (nodes and records) of `bytes` bytes is full, at a limit of `lineLimit` lines. */
export function batchIsFull(lines: number, bytes: number, lineLimit: number): boolean {
  return lines >= lineLimit || bytes >= BATCH_BYTES;
}
