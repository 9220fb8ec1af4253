/** The "source deleted" marks (issue 15): which sessions' transcripts are all gone, checked without holding up a list. */
import { describe, expect, it } from 'vitest';
import type { SessionSourceFiles } from '../../../../electron/db/session-source-files';
import { createSourceDeletedMarks } from '../../../../electron/service/source-files';

const FILES: Record<string, string[]> = {
  gone: ['/p/gone.jsonl', '/p/gone/subagents/agent-a.jsonl'],
  half: ['/p/half.jsonl', '/p/half/subagents/agent-b.jsonl'],
  here: ['/p/here.jsonl', '/p/here/subagents/agent-c.jsonl'],
  recorded: [],
};
const files: SessionSourceFiles = { of: (ids) => new Map(ids.flatMap((id) => (FILES[id] === undefined ? [] : [[id, FILES[id]!] as const]))) };

describe('source deleted marks', () => {
  it('marks a session only when every transcript file of it is gone, stating its own transcript first', async () => {
    const onDisk = new Set(['/p/half/subagents/agent-b.jsonl', '/p/here.jsonl', '/p/here/subagents/agent-c.jsonl']);
    const stated: string[] = [];
    const marks = createSourceDeletedMarks(files, { exists: async (path) => (stated.push(path), onDisk.has(path)) });
    expect(await marks.deletedOf(['gone', 'half', 'here', 'recorded'])).toEqual(new Set(['gone']));
    // One stat for a session whose own transcript is there.
    expect(stated.filter((path) => path.startsWith('/p/here'))).toEqual(['/p/here.jsonl']);
  });

  it('answers a slow check with what it knew, then tells the sessions whose mark changed', async () => {
    let release = (): void => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const changed: string[][] = [];
    const marks = createSourceDeletedMarks(files, { budgetMs: 5, exists: async (path) => (await slow, path.startsWith('/p/here')), onChanged: (ids) => changed.push([...ids]) });
    expect(await marks.deletedOf(['gone', 'here'])).toEqual(new Set());
    expect(changed).toEqual([]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changed).toEqual([['gone']]);
    expect(await marks.deletedOf(['gone', 'here'])).toEqual(new Set(['gone']));
    expect(changed).toHaveLength(1);
  });

  it('unmarks a session whose transcript came back', async () => {
    const onDisk = new Set<string>();
    const marks = createSourceDeletedMarks(files, { exists: async (path) => onDisk.has(path) });
    expect(await marks.deletedOf(['gone'])).toEqual(new Set(['gone']));
    onDisk.add('/p/gone.jsonl');
    expect(await marks.deletedOf(['gone'])).toEqual(new Set());
  });
});
