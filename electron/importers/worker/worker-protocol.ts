/**
 * Messages between the import's main thread and the parse worker (import-worker.ts). The worker reads and
 * parses files ahead, in plan order; the main thread stores what it sends. Raw lines travel as views into
 * transferred ArrayBuffers (the line reader's own buffers, never copied); the small fields are cloned.
 */
import type { ErrorCode } from '../../../shared/errors';
import type { ImportProblem } from '../../../shared/model';
import type { ParsedNode, ParsedRecord, ResumeKeys, TranscriptFile } from '../transcript';
import type { BlockAhead, BlockPacking } from '../../db/blocks-ahead';

/** One file to parse, from its resume point. */
export interface ParseJob {
  readonly file: TranscriptFile;
  readonly startOffset: number;
  readonly startLine: number;
  /** What the parser kept at `startOffset` (ParseOptions.resumeState). */
  readonly resumeState?: string | null;
  /** How the writer batches the file, so the worker compresses its raw-line blocks ahead (absent: it does not). */
  readonly packing?: BlockPacking | null;
  /** Every key kept with that state (ParseOptions.resumeKey, looked up here from these). */
  readonly resumeKeys?: readonly (readonly [key: string, value: string])[];
}

/** What a batch item is: a node, a record or a problem (numbers: a batch carries one per line). */
export type ItemKind = 0 | 1 | 2;
export const NODE_ITEM = 0;
export const RECORD_ITEM = 1;
export const PROBLEM_ITEM = 2;

export type ToWorker =
  | { readonly type: 'parse'; readonly jobs: readonly ParseJob[] }
  /** The main thread has stored a batch: its bytes no longer count against the worker's read-ahead. */
  | { readonly type: 'ack'; readonly bytes: number };

export type FromWorker =
  | { readonly type: 'ready' }
  | {
      readonly type: 'batch';
      readonly job: number;
      /** What each item is, in file order (the store attaches records to the node before them). */
      readonly kinds: readonly ItemKind[];
      readonly items: readonly (ParsedNode | ParsedRecord | ImportProblem)[];
      /** Raw-line blocks compressed ahead (db/blocks-ahead.ts), sealed by the lines of this batch or before. */
      readonly blocks: readonly BlockAhead[];
      /** Bytes of the file read so far (progress). */
      readonly bytesRead: number;
      /** Bytes transferred with this batch, lines and compressed blocks (backpressure). */
      readonly bytes: number;
    }
  | { readonly type: 'end'; readonly job: number; readonly endOffset: number; readonly endLine: number; readonly resumeState?: string | null; readonly resumeKeys?: ResumeKeys }
  /** The file could not be read (what the in-thread parse would have thrown); `code` when it was an ArborError. */
  | { readonly type: 'failed'; readonly job: number; readonly message: string; readonly code?: ErrorCode };
