/**
 * Raw lines as the store kept them from migration 013 to 035 (a small append's still are; since 035 an import
 * packs lines into blocks, raw-blocks.ts, and raw-line-reader.ts reads both): each line compressed on its own, so one node's line is
 * read without its neighbours. Node 20's zlib has deflate and brotli but no zstd; per line (about 3 KB on
 * average) deflate with a preset dictionary of the transcript formats' own keys compressed the bench corpus
 * 3.45× against brotli's 3.05× and deflate's 2.7× without one, and inflates fastest. `raw_codec` says how a
 * row is stored, so rows written before the migration (codec 0) stay readable while they are compacted.
 */
import type { WritableDB } from './database';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ArborError } from '../../shared/errors';
import { decodeBlock, RAW_IN_BLOCK } from './raw-blocks';

export type RawCodec = 0 | 1;
/** The line's bytes as they were read. */
export const RAW_PLAIN: RawCodec = 0;
/** deflate-raw with RAW_DICTIONARY_V1. A new dictionary is a new codec number: stored rows never change meaning. */
export const RAW_DEFLATE_V1: RawCodec = 1;

/** Shorter lines gain too little to pay for the compression call. */
const MIN_COMPRESSED = 96;

/**
 * What transcript lines repeat from one to the next (Claude Code's keys and values, FORMATS.md §1), the most
 * frequent last: deflate codes a match nearer the end of its window in fewer bits. Never edit: rows stored with
 * codec 1 are inflated with exactly these bytes.
 */
const RAW_DICTIONARY_V1 = Buffer.from(
  [
    '{"type":"summary","summary":"","leafUuid":"',
    '{"type":"file-history-snapshot","messageId":"","snapshot":{"messageId":"","trackedFileBackups":{},"timestamp":""},"isSnapshotUpdate":false}',
    '"backupFileName":"","version":1,"backupTime":"',
    '{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","level":"info","compactMetadata":{"trigger":"auto","preTokens":',
    '"isCompactSummary":true,"isVisibleInTranscriptOnly":true,"logicalParentUuid":"',
    '"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:","command":"',
    '"toolUseID":"toolu_","parentToolUseID":"toolu_',
    '"toolUseResult":{"type":"text","file":{"filePath":"","content":"","numLines":,"startLine":1,"totalLines":',
    '"toolUseResult":{"stdout":"","stderr":"","interrupted":false,"isImage":false}',
    '"toolUseResult":{"filePath":"","oldString":"","newString":"","originalFile":"","structuredPatch":[{"oldStart":,"oldLines":,"newStart":,"newLines":,"lines":["',
    '"stop_reason":"end_turn","stop_reason":"tool_use","stop_sequence":null,',
    '"usage":{"input_tokens":,"cache_creation_input_tokens":,"cache_read_input_tokens":,"cache_creation":{"ephemeral_5m_input_tokens":,"ephemeral_1h_input_tokens":0},"output_tokens":,"service_tier":"standard"}},',
    '"requestId":"req_',
    '{"type":"thinking","thinking":"","signature":"',
    '{"type":"tool_use","id":"toolu_","name":"Bash","input":{"command":"","description":"',
    '{"type":"tool_use","id":"toolu_","name":"Edit","input":{"file_path":"","old_string":"","new_string":"',
    '{"type":"tool_use","id":"toolu_","name":"Read","input":{"file_path":"',
    '{"tool_use_id":"toolu_","type":"tool_result","content":"","is_error":false}]},',
    '"message":{"role":"user","content":[{"tool_use_id":"toolu_',
    '"message":{"id":"msg_","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"',
    '"message":{"id":"msg_","type":"message","role":"assistant","model":"claude-opus-4-1-20250805","content":[{"type":"text","text":"',
    '"message":{"role":"user","content":"',
    '"permissionMode":"default"}',
    '{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/","sessionId":"","version":"2.0.","gitBranch":"main","slug":"","type":"user",',
    '{"parentUuid":"","isSidechain":true,"userType":"external","cwd":"/","sessionId":"","version":"2.1.","gitBranch":"","agentId":"","type":"assistant",',
    '"uuid":"","timestamp":"2026-',
    '{"parentUuid":"","isSidechain":false,"userType":"external","cwd":"/","sessionId":"","version":"2.1.","gitBranch":"main","type":"assistant",',
  ].join('\n'),
  'utf8',
);

const ENCODE_OPTIONS = { level: 1, windowBits: 13, memLevel: 4, dictionary: RAW_DICTIONARY_V1 } as const;

export interface EncodedRaw {
  readonly raw: Buffer;
  readonly codec: RawCodec;
}

/**
 * The line as stored: compressed when that makes it smaller, else as it was. `compress` false stores it as read,
 * for the background compaction to compress later (raw-compaction.ts `compactLater`): a small append's lines,
 * where each line's own deflate stream and dictionary cost ~60 µs of CPU, most of it setting them up.
 */
export function encodeRaw(line: Buffer, compress = true): EncodedRaw {
  if (!compress || line.length < MIN_COMPRESSED) return { raw: line, codec: RAW_PLAIN };
  // The import's costliest step. Level 1 with an 8 KiB window (lines average ~3 KB) and smaller hash tables
  // encoded 1.35x faster than level 4 with the defaults, at 3.18x instead of 3.54x on the bench's transcripts
  // (level 6 gained ~5% size for ~40% more time). Any window up to 32 KiB inflates with the same call.
  const packed = deflateRawSync(line, ENCODE_OPTIONS);
  return packed.length < line.length ? { raw: packed, codec: RAW_DEFLATE_V1 } : { raw: line, codec: RAW_PLAIN };
}

/** The line's bytes, exactly as they were read, from a stored row. */
export function decodeRaw(stored: Buffer, codec: number): Buffer {
  switch (codec) {
    case RAW_PLAIN:
      return stored;
    case RAW_DEFLATE_V1:
      return inflateRawSync(stored, { dictionary: RAW_DICTIONARY_V1 });
    default:
      // A store written by a newer Arbor: say so rather than hand back bytes that are not the line.
      throw new ArborError('UNSUPPORTED', `This store holds a line in a format this Arbor cannot read (codec ${codec})`, { codec });
  }
}

/**
 * Registers `raw_text(raw, codec)` on a connection, so SQL (a migration reading old records) reads a stored
 * line as text whatever its codec; a plain CAST would read compressed bytes. A row in a block (migration 035) is
 * read as `raw_text(n.raw, n.raw_codec, b.codec, b.bytes, n.raw_start, n.raw_length)` with its block joined
 * (`LEFT JOIN raw_blocks b ON b.id = n.raw_block`): a function cannot query the connection running it.
 */
export function rawTextFunction(db: WritableDB): void {
  db.function('raw_text', { deterministic: true, varargs: true }, (raw: unknown, codec: unknown, blockCodec?: unknown, block?: unknown, start?: unknown, length?: unknown) => {
    if (Number(codec) === RAW_IN_BLOCK) {
      if (!Buffer.isBuffer(block)) return null;
      const begin = Number(start);
      return decodeBlock(block, Number(blockCodec)).toString('utf8', begin, begin + Number(length));
    }
    return Buffer.isBuffer(raw) ? decodeRaw(raw, Number(codec)).toString('utf8') : typeof raw === 'string' ? raw : null;
  });
}
