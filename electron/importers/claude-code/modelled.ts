/**
 * What Arbor models of Claude Code's transcript format: ONE registry, read by the importer where it decides
 * a line's kind and label (entry-summary.ts) and by the format doctor (format-doctor.ts, `arbor doctor`),
 * which reports everything not listed here — so the two cannot drift. Anything not listed is still kept
 * (an opaque node or record, never a stopped import); listed means Arbor reads it and shows what it is.
 *
 * Plain data, one name a line: adding a newly modelled shape is one line here plus its handling. The 2026
 * shapes come from records-2026.ts, which handles them.
 */
import { BLOCK_TYPES as BLOCK_TYPES_2026, RECORD_TYPES as RECORD_TYPES_2026, SYSTEM_SUBTYPES as SYSTEM_SUBTYPES_2026 } from './records-2026';

export const MODELLED = {
  /** `type` of a line (with a uuid: a node; without: a record attached to one). */
  recordTypes: [
    'user',
    'assistant',
    'system',
    'progress',
    'attachment',
    'saved_hook_context',
    'summary',
    'file-history-snapshot',
    ...RECORD_TYPES_2026,
  ],
  /**
   * `subtype` of a `system` line. The last ones are shown by their own `content` (FORMATS.md §1.2), which
   * says what they are; ≤1.0.5x lines without a subtype are too (`systemWithoutSubtype`).
   */
  systemSubtypes: [
    'compact_boundary',
    'microcompact_boundary',
    'api_error',
    'local_command',
    'stop_hook_summary',
    'turn_duration',
    'informational',
    'away_summary',
    'bridge_status',
    ...SYSTEM_SUBTYPES_2026,
  ],
  systemWithoutSubtype: true,
  /** `message.content[].type` of a user line (a string content is text). */
  userBlocks: [
    'text',
    'tool_result',
    'image',
  ],
  /** `message.content[].type` of an assistant line. */
  assistantBlocks: [
    'text',
    'thinking',
    'redacted_thinking',
    'tool_use',
    ...BLOCK_TYPES_2026,
  ],
  /** `content[].type` inside a tool_result block (a string content is text). */
  toolResultBlocks: [
    'text',
    'image',
  ],
  /** `data.type` of a `progress` line. */
  progressTypes: [
    'hook_progress',
    'bash_progress',
    'agent_progress',
    'waiting_for_task',
  ],
  /** `attachment.type` of an `attachment` line, by prefix (hook outcomes: hook_success, hook_blocking_error, …). */
  attachmentTypePrefixes: [
    'hook_',
  ],
} as const;

const RECORD_TYPES: ReadonlySet<string> = new Set(MODELLED.recordTypes);
const SYSTEM_SUBTYPES: ReadonlySet<string> = new Set(MODELLED.systemSubtypes);
const PROGRESS_TYPES: ReadonlySet<string> = new Set(MODELLED.progressTypes);
const BLOCKS: Readonly<Record<'user' | 'assistant' | 'tool_result', ReadonlySet<string>>> = {
  user: new Set(MODELLED.userBlocks),
  assistant: new Set(MODELLED.assistantBlocks),
  tool_result: new Set(MODELLED.toolResultBlocks),
};

export function isModelledRecordType(type: string): boolean {
  return RECORD_TYPES.has(type);
}

export function isModelledSystemSubtype(subtype: string | null): boolean {
  return subtype === null ? MODELLED.systemWithoutSubtype : SYSTEM_SUBTYPES.has(subtype);
}

export function isModelledBlock(where: 'user' | 'assistant' | 'tool_result', type: string): boolean {
  return BLOCKS[where].has(type);
}

export function isModelledProgressType(type: string): boolean {
  return PROGRESS_TYPES.has(type);
}

export function isModelledAttachmentType(type: string): boolean {
  return MODELLED.attachmentTypePrefixes.some((prefix) => type.startsWith(prefix));
}
