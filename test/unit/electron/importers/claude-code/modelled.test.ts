/**
 * The registry and the importer cannot drift: every name modelled.ts lists gets the importer's own handling
 * (not its opaque fallback), and a name it does not list gets the fallback and a line in the doctor's report.
 */
import { describe, expect, it } from 'vitest';
import { summarizeEntry } from '../../../../../electron/importers/claude-code/entry-summary';
import { FormatDoctor } from '../../../../../electron/importers/claude-code/format-doctor';
import { MODELLED } from '../../../../../electron/importers/claude-code/modelled';
import { RECORD_TYPES as RECORD_TYPES_2026 } from '../../../../../electron/importers/claude-code/records-2026';

const NO_TOOLS = new Map<string, string>();
const summarize = (entry: Record<string, unknown>) => summarizeEntry(entry, typeof entry.type === 'string' ? entry.type : null, '/w', NO_TOOLS);

function doctorFindings(entry: Record<string, unknown>): string[] {
  const doctor = new FormatDoctor();
  doctor.line(Buffer.from(JSON.stringify({ uuid: 'u', ...entry })), { file: 'f', line: 1 });
  return doctor.report().unmodelled.map((f) => `${f.category}:${f.name}`);
}

describe('the modelled registry', () => {
  it('every record type with a uuid that it lists gets a kind of its own; one it does not is an opaque unknown node', () => {
    // Records without a uuid (summary, snapshots, the 2026 records) attach to a node rather than being one.
    const records: ReadonlySet<string> = new Set(['summary', 'file-history-snapshot', ...RECORD_TYPES_2026]);
    for (const type of MODELLED.recordTypes.filter((t) => !records.has(t))) {
      const entry = { type, message: { content: 'hi' }, subtype: 'turn_duration', data: { type: 'hook_progress' }, attachment: { type: 'hook_success', hookName: 'Stop' } };
      expect(summarize(entry).kind, type).not.toBe('unknown');
      expect(doctorFindings(entry), type).toEqual([]);
    }
    expect(summarize({ type: 'future-record' })).toMatchObject({ kind: 'unknown', label: 'Unknown line type "future-record"' });
    expect(doctorFindings({ type: 'future-record' })).toEqual(['record type:future-record']);
  });

  it('every progress type it lists gets its own label, not the generic "Progress: <type>"', () => {
    for (const type of MODELLED.progressTypes) {
      expect(summarize({ type: 'progress', data: { type } }).label, type).not.toBe(`Progress: ${type}`);
      expect(doctorFindings({ type: 'progress', data: { type } })).toEqual([]);
    }
    expect(summarize({ type: 'progress', data: { type: 'future_progress' } }).label).toBe('Progress: future_progress');
    expect(doctorFindings({ type: 'progress', data: { type: 'future_progress' } })).toEqual(['progress type:future_progress']);
  });

  it('attachment types under a listed prefix are hook outcomes; others are shown by their type name only', () => {
    for (const prefix of MODELLED.attachmentTypePrefixes) {
      const entry = { type: 'attachment', attachment: { type: `${prefix}success`, hookName: 'Stop' } };
      expect(summarize(entry).label).toBe('Hook Stop: success');
      expect(doctorFindings(entry)).toEqual([]);
    }
    expect(summarize({ type: 'attachment', attachment: { type: 'skill_listing' } }).label).toBe('Attachment: skill_listing');
    expect(doctorFindings({ type: 'attachment', attachment: { type: 'skill_listing' } })).toEqual(['attachment type:skill_listing']);
  });

  it('the system subtypes with handling of their own are listed', () => {
    for (const subtype of ['compact_boundary', 'microcompact_boundary', 'api_error', 'local_command', 'stop_hook_summary', 'turn_duration']) {
      expect(MODELLED.systemSubtypes).toContain(subtype);
      expect(summarize({ type: 'system', subtype }).label, subtype).not.toBe(`System: ${subtype}`);
    }
    expect(doctorFindings({ type: 'system', content: 'old 1.0 line' })).toEqual([]);
    expect(doctorFindings({ type: 'system', subtype: 'future_notice' })).toEqual(['system subtype:future_notice']);
  });

  it('the assistant blocks it lists give the line a text, thinking or tool kind; others are reported', () => {
    const kinds = MODELLED.assistantBlocks.map((type) => summarize({ type: 'assistant', message: { content: [{ type, text: 't', thinking: 't', name: 'Read', id: 'x', input: {} }] } }).label);
    expect(kinds.every((label) => label !== '(empty response)')).toBe(true);
    expect(doctorFindings({ type: 'assistant', message: { content: [{ type: 'future_block' }] } })).toEqual(['assistant block:future_block']);
    expect(doctorFindings({ type: 'user', message: { content: [{ type: 'tool_result', content: [{ type: 'tool_reference' }] }] } })).toEqual([
      'tool result block:tool_reference',
    ]);
  });
});
