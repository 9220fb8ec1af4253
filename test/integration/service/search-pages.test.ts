import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prompt, reply, writeTranscript } from './claude-lines';
import { type Harness, openHarness } from './service-harness';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('search.query pages and totals', () => {
  it('counts every match and pages through them with offset, each node once', async () => {
    const lines = [prompt('u0', null, 'the tokenizer needs work')];
    for (let i = 1; i <= 30; i += 1) lines.push(reply(`a${i}`, i === 1 ? 'u0' : `a${i - 1}`, `tokenizer step ${i}`));
    writeTranscript(join(h.projects, '-repo', 'S1.jsonl'), lines);
    await h.service.api['import.run']({ paths: [h.projects] });
    await h.service.idle();

    const first = await h.service.api['search.query']({ query: 'tokenizer', limit: 12 });
    expect(first).toMatchObject({ total: 31, totalCapped: false });
    expect(first.hits).toHaveLength(12);
    const second = await h.service.api['search.query']({ query: 'tokenizer', limit: 12, offset: 12 });
    const third = await h.service.api['search.query']({ query: 'tokenizer', limit: 12, offset: 24 });
    expect(third.hits).toHaveLength(7);
    const all = [...first.hits, ...second.hits, ...third.hits].map((hit) => hit.nodeId);
    expect(new Set(all).size).toBe(31);
    expect((await h.service.api['search.query']({ query: 'tokenizer', offset: 31 })).hits).toEqual([]);
    expect(await h.service.api['search.query']({ query: 'zebra' })).toMatchObject({ hits: [], total: 0, totalCapped: false });
  });

  it('refuses an offset out of range as a bad request', async () => {
    await expect(h.service.api['search.query']({ query: 'x', offset: -1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
