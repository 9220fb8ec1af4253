import { describe, expect, it } from 'vitest';
import { readOversizeEnvelope, topLevelFromEnd, topLevelFromStart } from '../../../../../electron/importers/claude-code/oversize-line';

const line = JSON.stringify({
  parentUuid: 'P',
  message: { uuid: 'nested', type: 'message', content: [{ text: 'a "quoted" \\ text with } and ]' }] },
  type: 'assistant',
  note: 'x\\"y',
  uuid: 'U',
  timestamp: 'T',
});

describe('top-level scans', () => {
  it('keeps only the outer object members, nested values as 0, from either end', () => {
    const expected = '"parentUuid":"P","message":0,"type":"assistant","note":"x\\\\\\"y","uuid":"U","timestamp":"T"';
    expect(topLevelFromStart(Buffer.from(line))).toBe(expected);
    expect(topLevelFromEnd(Buffer.from(line))).toBe(expected);
  });

  it('drops the cut member at the start of a tail', () => {
    const tail = Buffer.from(line.slice(line.indexOf('assistant') - 3));
    expect(topLevelFromEnd(tail)).toBe(',"note":"x\\\\\\"y","uuid":"U","timestamp":"T"');
  });
});

describe('readOversizeEnvelope', () => {
  it('reads fields from head and tail, never from nested objects', () => {
    const bytes = Buffer.from(line);
    const envelope = readOversizeEnvelope(bytes.subarray(0, 20), bytes.subarray(bytes.length - 60));
    expect(envelope).toMatchObject({ parentUuid: 'P', uuid: 'U', timestamp: 'T', isSidechain: false });
    const fromHeadOnly = readOversizeEnvelope(bytes.subarray(0, 80), Buffer.alloc(0));
    expect(fromHeadOnly.uuid).toBeNull();
    expect(fromHeadOnly.type).toBeNull();
  });
});
