import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NODE_DETAILS_MAX, requestValidators } from '../../../shared/contract';
import { ArborError } from '../../../shared/errors';
import { prompt, reply, toolCall, toolResult, writeTranscript } from './claude-lines';
import { type Harness, openHarness } from './service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('nodes.details', () => {
  it('returns each asked node once, in order, as nodes.get does, and lists ids that name no node', async () => {
    writeTranscript(join(h.projects, '-repo', 'S1.jsonl'), [
      prompt('u1', null, 'read a.py', 'S1', 0),
      toolCall('a1', 'u1', 'toolu_1', 'Read', { file_path: '/repo/a.py' }, 'S1', 2),
      toolResult('r1', 'a1', 'toolu_1', 'print("hi")', { at: 5 }),
      reply('a2', 'r1', 'It prints hi.'),
    ]);
    await h.service.api['import.run']({ paths: [h.projects] });
    const result = await h.service.api['nodes.details']({ nodeIds: ['a2', 'a1', 'gone', 'a1', 'u1'] });
    expect(result.details.map((detail) => detail.node.id)).toEqual(['a2', 'a1', 'u1']);
    expect(result.missing).toEqual(['gone']);
    expect(result.details[1]).toEqual(await h.service.api['nodes.get']({ nodeId: 'a1' }));
    expect(result.details[1]?.toolCalls[0]).toMatchObject({ outcome: 'ok', resultNodeId: 'r1', resultText: 'print("hi")' });
  });

  it('stops with CANCELLED when its signal is aborted', async () => {
    writeTranscript(join(h.projects, '-repo', 'S1.jsonl'), [prompt('u1', null, 'hello', 'S1', 0)]);
    await h.service.api['import.run']({ paths: [h.projects] });
    const controller = new AbortController();
    controller.abort();
    await expect(h.service.api['nodes.details']({ nodeIds: ['u1'] }, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('refuses more than NODE_DETAILS_MAX ids, and ids that are not strings', () => {
    const ids = Array.from({ length: NODE_DETAILS_MAX + 1 }, (_, i) => `n${i}`);
    expect(() => requestValidators['nodes.details']({ nodeIds: ids })).toThrow(ArborError);
    expect(() => requestValidators['nodes.details']({ nodeIds: [1] })).toThrow(ArborError);
    expect(requestValidators['nodes.details']({ nodeIds: ids.slice(1) }).nodeIds).toHaveLength(NODE_DETAILS_MAX);
  });
});
